import Synchronization

// How a scope reaches its root's engine without keeping the root alive: the handle's storage,
// its lifetime proofs, and the one borrow of the engine. The fields that skip the run-time
// exclusivity check in a release build are checked in the checked build
// (`STATESTORE_CHECKED_EXCLUSIVITY`), which `.ci/run` runs the whole suite in.

/// A root store as its scopes refer to it: without keeping it alive, and without a weak
/// reference.
///
/// A weak reference gives the root a side table, and then every retain and release of the
/// root, on every dispatch, takes the runtime's slow path; each read of it also costs a
/// load-and-retain of its own. Instead the root holds this object, its scopes' links hold it
/// too, and the root's `isolated deinit` clears ``isAlive`` before anything of the root is
/// destroyed.
///
/// Proof that ``unownedScopeRoot`` (and `RootReference`'s `unownedRoot`) is never read after
/// the root is freed:
/// - it is read only through ``root``, on the main actor, and only while ``isAlive`` is true;
/// - ``isAlive`` is cleared by the root's deinitializer, which is isolated to the main actor,
///   as its first statement, so on the main actor no code runs between the end of the
///   deinitializer and the root's memory being freed, and none after it sees `true`;
/// - when the root's last reference goes on another thread, its deinitializer waits for the
///   main actor, and until it has run the root's memory is not freed: main-actor code that
///   reaches the root meanwhile finds a whole store, still with `isAlive` true (the runtime
///   lets a retain and its release happen on an object whose deinitializer is pending);
/// - the application's code that the root's destruction runs (the `deinit` of a value in its
///   state, of an effect, of an interceptor), which may dispatch through a scope, runs after
///   ``isAlive`` was cleared, so it finds the root released and the dispatch is reported as
///   dropped, as `ScopeLifetimeTests` checks with such a hostile deinitializer.
@usableFromInline
@MainActor
class _RootHandle {
  /// Whether the root has not begun its deinitializer.
  // Unchecked: read on every scoped dispatch. It is written once, by the root's deinitializer,
  // and read by plain loads; every access is on the main actor and runs no code, so no two
  // can overlap.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _isAlive = true
  // Unchecked lifetime: see the type's comment.
  @usableFromInline final unowned(unsafe) let _unownedScopeRoot: any _ScopeRoot
  /// The root's engine, not retained: the store owns it (a constant field), so it lives at
  /// least as long as the store; read only through ``withEngineCore(_:)``.
  @usableFromInline final let _unretainedCore: Unmanaged<_EngineCore>
  /// The root's engine, kept alive by its store's deinitializer when the store goes in the
  /// middle of a call that uses the engine through ``unretainedCore`` (``isLendingEngine``),
  /// until that call has returned.
  ///
  /// ``withEngineCore(_:ifReleased:)`` runs a scope's change on the engine read from
  /// ``unretainedCore``, a reference that does not keep it alive. The change runs the
  /// application's code (the updater, the `deinit` of a value it replaces, a queued updater
  /// run after it), which may release the root's last reference: the store's deinitializer
  /// then finds the engine lent and hands it here, so the engine, its state and its flags
  /// outlive the store until the outermost such call returns and lets it go. Only then, with
  /// no access open, is the state destroyed (and the deinitializers of its values run).
  /// Nothing else sets it, so it holds the engine for the length of one call.
  // Checked: touched only when a root is released during a scope's change.
  @usableFromInline final var _survivingEngine: AnyObject?
  /// Whether a call of ``withEngineCore(_:ifReleased:)`` is running: the store's
  /// deinitializer then hands its engine to ``survivingEngine``.
  // Unchecked: a flag, read by copy and written by assignment on the main actor.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _isLendingEngine = false

  @usableFromInline
  init(_ root: any _ScopeRoot, engine: _EngineCore) {
    _unownedScopeRoot = root
    _unretainedCore = .passUnretained(engine)
  }

  /// The root, or `nil` once it has begun its deinitializer.
  @inlinable
  final var root: (any _ScopeRoot)? { _isAlive ? _unownedScopeRoot : nil }

  /// Whether the root is inside an updater's `inout` access to its state, when nothing may
  /// read that state; false once the root is released.
  ///
  /// One flag, read through ``unretainedCore``: the store holds the engine while ``isAlive`` is
  /// true, and the read calls nothing.
  @inlinable
  final var _rootIsApplyingUpdater: Bool {
    _isAlive && _withUnretained(_unretainedCore) { $0._isApplyingUpdater }
  }

  /// Calls `body` with the root's engine, read from ``unretainedCore``, without retaining the
  /// store, or answers `released` once the root has begun its deinitializer.
  ///
  /// Proof that the engine is alive for the whole of `body`, whatever the application's code
  /// that `body` runs does:
  /// - on entry ``isAlive`` is true, so the store has not begun its deinitializer and holds
  ///   the engine in a constant field: the engine is alive;
  /// - during `body` the store can lose its last reference only to the application's code, or
  ///   to the release of a strong reference that `body` took and that code made the last one;
  ///   then the store's deinitializer, which runs at once on the main actor (or, released on
  ///   another thread, waits for it, and so for `body` to return), finds ``isLendingEngine``
  ///   set, as it is for the whole of `body`, and hands the engine to ``survivingEngine``:
  ///   this handle, alive for the call because the caller holds it (a link's constant field,
  ///   or the link's closure that is running), keeps it alive until the outermost such call
  ///   returns (a call nested in another, from the application's code, leaves it to the
  ///   outer one);
  /// - the engine's code that `body` runs touches the store only through
  ///   `RootReference.store`, which answers `nil` after the deinitializer began, never
  ///   through a reference kept across the application's code.
  /// Tests: `RootReleasedDuringScopedDispatchTests`, with updaters and a replaced value's
  /// `deinit` that release the root.
  @inlinable @inline(__always)
  final func withEngineCore<Result>(_ body: (_EngineCore) -> Result, ifReleased released: Result)
    -> Result
  {
    guard _isAlive else { return released }
    let wasLending = _isLendingEngine
    _isLendingEngine = true
    let result = _withUnretained(_unretainedCore, body)
    _isLendingEngine = wasLending
    if !_isAlive && !wasLending { _releaseSurvivingEngine() }
    return result
  }

  /// Applies `updater` to the slice `offset` bytes into the root's state, at once, when the
  /// root is idle and nothing observes it or intercepts its dispatches; false, having done
  /// nothing, otherwise (the scope then takes the root link's way, which handles the rest).
  ///
  /// The root's own fast path (`Store.dispatch(_:)`), made from the scope with no call through
  /// a closure and no reference counted: the same flags are checked and set around the
  /// updater's `inout` access, so the same rules hold inside it (a dispatch from the updater is
  /// queued, a read of the state stops the process), and what the updater queued runs after
  /// it, with the store held.
  ///
  /// `offset` is where the slice, of type `U.StateType`, is stored inline in the root's state
  /// (`ScopeLink.offsetInRoot`): `MemoryLayout.offset(of:)` documents that an access through
  /// the offset pointer is the same as one through the key path, and the state's memory is
  /// bound to the root's type, so to the slice's type at that offset.
  @inlinable @inline(__always)
  final func applyUnobserved<U: StateUpdater>(_ updater: U, atOffset offset: Int) -> Bool {
    withEngineCore(
      { core in
        guard core._appliesAtOnceUnobserved else { return false }
        core.applyUnobserved(from: self) {
          updater.updateState(
            &(core._stateAddress + offset).assumingMemoryBound(to: U.StateType.self).pointee)
        }
        return true
      }, ifReleased: false)
  }

  /// Runs what the root queued during a scope's in-place dispatch, with the store held, if it
  /// is still alive; overridden by ``RootReference``, which knows the store's type.
  @usableFromInline
  func _drainQueue() {}

  /// Lets the engine that its store handed over go, once the call it survived for returns.
  @usableFromInline
  final func _releaseSurvivingEngine() {
    let engine = _survivingEngine
    _survivingEngine = nil
    withExtendedLifetime(engine) {}
  }
}

/// A ``RootHandle`` that knows the root's types, for the closures of the root's own link.
@usableFromInline
@MainActor
final class _RootReference<S: State, Dependencies: Sendable>: _RootHandle {
  // Unchecked lifetime: see ``RootHandle``'s comment.
  @usableFromInline unowned(unsafe) let _unownedRoot: Store<S, Dependencies>

  @usableFromInline
  init(_ store: Store<S, Dependencies>, engine: _RootEngine<S, Dependencies>) {
    _unownedRoot = store
    super.init(store, engine: engine)
  }

  /// The root store, or `nil` once it has begun its deinitializer.
  @inlinable
  var store: Store<S, Dependencies>? { _isAlive ? _unownedRoot : nil }

  /// Calls `body` with the root's engine, without retaining the store, or answers `released`
  /// once the root has begun its deinitializer; see ``withEngineCore(_:ifReleased:)``
  /// for the proof that the engine stays alive for the call.
  @inlinable
  func withEngine<Result>(
    _ body: (_RootEngine<S, Dependencies>) -> Result, ifReleased released: Result
  ) -> Result {
    withEngineCore(
      { body(unsafeDowncast($0, to: _RootEngine<S, Dependencies>.self)) }, ifReleased: released)
  }

  @usableFromInline
  override func _drainQueue() {
    guard let store, let engine = store._engine else { return }
    engine._drainQueue(store: store)
  }
}

/// Calls `body` with the object `reference` refers to, without retaining it; the caller proves
/// that it stays alive for the call.
///
/// The one underscored standard-library entry point left in the module: `takeUnretainedValue()`
/// retains and releases the engine on every scoped dispatch, which costs a dispatch through an
/// element scope about a third of its time (`Docs/Performance.md`, "Public Swift only: what it
/// costs"). It goes when a scope's runtime holds what it needs of the root's engine itself.
@inlinable @inline(__always)
func _withUnretained<Object: AnyObject, Result>(
  _ reference: Unmanaged<Object>, _ body: (Object) -> Result
) -> Result {
  reference._withUnsafeGuaranteedRef(body)
}
