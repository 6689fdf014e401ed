import Synchronization

// How a scope reaches its root's engine without keeping the root alive: the handle's storage
// and its lifetime proofs. The fields that skip the run-time
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
  /// The root's engine as its non-generic base: its dispatch flags and its state's address.
  ///
  /// A scope's change reaches them with no reference counted (a constant of the handle, which
  /// the caller holds, is read without a retain). ``_RootReference`` holds the engine itself,
  /// strongly.
  ///
  /// Holding the engine is not holding the root: the engine holds no reference to its store,
  /// and the store's deinitializer releases what the engine keeps of the application's (the
  /// state, the queue, the interceptors, the root's link) through
  /// ``_RootEngine/_releaseContents()`` as it goes, so a scope that outlives its root keeps
  /// only the engine's empty shell alive. Read only through ``withEngineCore(_:ifReleased:)``.
  @usableFromInline final let _core: _EngineCore
  /// Whether a call of ``withEngineCore(_:ifReleased:)`` is running: the store's
  /// deinitializer then leaves the engine's contents to that call, which releases them when it
  /// returns.
  // Unchecked: a flag, read by copy and written by assignment on the main actor.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _isLendingEngine = false

  @usableFromInline
  init(_ root: any _ScopeRoot, core: _EngineCore) {
    _unownedScopeRoot = root
    _core = core
  }

  /// Releases what the engine keeps of the application's, once its store is gone and no call
  /// uses the engine; overridden by ``_RootReference``, which holds the engine.
  @usableFromInline
  func _releaseEngineContents() {}

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
  /// The root's engine, held strongly (see ``_RootHandle/_core``).
  ///
  /// Read only through ``withEngine(_:ifReleased:)``.
  @usableFromInline let _engine: _RootEngine<S, Dependencies>

  @usableFromInline
  init(_ store: Store<S, Dependencies>, engine: _RootEngine<S, Dependencies>) {
    _unownedRoot = store
    _engine = engine
    super.init(store, core: engine)
  }

  @usableFromInline
  override func _releaseEngineContents() {
    _engine._releaseContents()
  }

  @usableFromInline
  override func _drainQueue() {
    guard let store else { return }
    withEngine({ $0._drainQueue(store: store) }, ifReleased: ())
  }
}
