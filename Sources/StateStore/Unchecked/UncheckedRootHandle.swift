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
/// too, and the root's `isolated deinit` clears ``_isAlive`` before anything of the root is
/// destroyed.
///
/// Proof that ``_unownedScopeRoot`` (and `RootReference`'s `unownedRoot`) is never read after
/// the root is freed:
/// - it is read only through ``root``, on the main actor, and only while ``_isAlive`` is true;
/// - ``_isAlive`` is cleared by the root's deinitializer, which is isolated to the main actor,
///   as its first statement, so on the main actor no code runs between the end of the
///   deinitializer and the root's memory being freed, and none after it sees `true`;
/// - when the root's last reference goes on another thread, its deinitializer waits for the
///   main actor, and until it has run the root's memory is not freed: main-actor code that
///   reaches the root meanwhile finds a whole store, still with `isAlive` true (the runtime
///   lets a retain and its release happen on an object whose deinitializer is pending);
/// - the application's code that the root's destruction runs (the `deinit` of a value in its
///   state, of an effect, of an interceptor), which may dispatch through a scope, runs after
///   ``_isAlive`` was cleared, so it finds the root released and the dispatch is reported as
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
  /// least as long as the store; read only through ``withEngineCore(_:ifReleased:)``.
  @usableFromInline final let _unretainedCore: Unmanaged<_EngineCore>
  /// The root's engine, kept alive by its store's deinitializer when the store goes in the
  /// middle of a call that uses the engine through ``_unretainedCore`` (``_isLendingEngine``),
  /// until that call has returned.
  ///
  /// ``withEngineCore(_:ifReleased:)`` runs a scope's change on the engine read from
  /// ``_unretainedCore``, a reference that does not keep it alive. The change runs the
  /// application's code (the updater, the `deinit` of a value it replaces, a queued updater
  /// run after it), which may release the root's last reference: the store's deinitializer
  /// then finds the engine lent and hands it here, so the engine, its state and its flags
  /// outlive the store until the outermost such call returns and lets it go. Only then, with
  /// no access open, is the state destroyed (and the deinitializers of its values run).
  /// Nothing else sets it, so it holds the engine for the length of one call.
  // Checked: touched only when a root is released during a scope's change.
  @usableFromInline final var _survivingEngine: AnyObject?
  /// Whether a call of ``withEngineCore(_:ifReleased:)`` is running: the store's
  /// deinitializer then hands its engine to ``_survivingEngine``.
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

  /// Runs what the root queued during a scope's in-place dispatch, with the store held, if it
  /// is still alive; overridden by ``_RootReference``, which knows the store's type.
  @usableFromInline
  func _drainQueue() {}

}

/// A ``_RootHandle`` that knows the root's types, for the closures of the root's own link.
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

  @usableFromInline
  override func _drainQueue() {
    guard let store else { return }
    withEngine({ $0._drainQueue(store: store) }, ifReleased: ())
  }
}
