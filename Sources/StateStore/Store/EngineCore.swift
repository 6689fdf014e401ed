/// The part of a root's engine that does not depend on its types: the dispatch flags, the
/// update count, and the address of the state.
///
/// A scope knows its own slice's type, not the root's, and reaches the root through a handle
/// (``_RootHandle``) that does not know the root's types either. Through this class it applies
/// a dispatch to a slice stored inline in the root's state the way the root applies its own:
/// it checks the flags, sets them, runs the updater at the slice's address, and counts the
/// update, with no call through a closure and no reference counted, as code specialised for
/// the slice's type (`Store.dispatchThroughScope`). Everything else a dispatch can need (the
/// observers, the queue, the interceptors) is in the generic engine.
///
/// See the comment at the top of `RootEngine.swift` for why the unchecked accesses never
/// overlap.
@usableFromInline
@MainActor
class _EngineCore {
  /// Where the state begins: the engine's `_state`, whose address never changes.
  @usableFromInline final let _stateAddress: UnsafeMutableRawPointer
  /// Whether there are interceptors, so that the fast path can never apply a dispatch at once.
  ///
  /// Kept apart from the interceptors so that the fast path reads one flag.
  @usableFromInline final let _hasInterceptors: Bool
  /// True while the store is applying a dispatch or notifying about it.
  // Unchecked: a flag (see the top of `RootEngine.swift`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _isDispatching = false
  /// True only while an updater holds the state `inout`.
  // Unchecked: a flag (see the top of `RootEngine.swift`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _isApplyingUpdater = false
  /// Whether anything at all must run after an updater is applied.
  ///
  /// The store's own observers, update observers, or scopes with observers.
  // Unchecked: a flag (see the top of `RootEngine.swift`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _hasObservers = false
  /// Whether the queue holds a dispatch not yet run.
  // Unchecked: a flag (see the top of `RootEngine.swift`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _hasQueued = false
  /// The number of updates applied: what a selection group's cache and an ``AppliedUpdate``'s
  /// `sequence` count.
  // Unchecked: a flag (see the top of `RootEngine.swift`): a plain value, read by copy and
  // written by assignment.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _version: UInt64 = 0

  @usableFromInline
  init(stateAddress: UnsafeMutableRawPointer, hasInterceptors: Bool) {
    self._stateAddress = stateAddress
    self._hasInterceptors = hasInterceptors
  }

  /// Whether a dispatch made now would be applied on the spot: idle, with no interceptors.
  @inlinable
  final var _appliesAtOnce: Bool { !_isDispatching && !_hasInterceptors }

  /// Whether a scope's dispatch made now would be applied on the spot with nothing to run
  /// after it: idle, with no interceptors and nothing observing the root (no update observer
  /// either, which `hasObservers` counts).
  @inlinable
  final var _appliesAtOnceUnobserved: Bool { _appliesAtOnce && !_hasObservers }

  /// The one place where the state is modified: runs `change`, the updater's `inout` access
  /// to the state (or to a slice of it, at its address), with the flag that forbids reading
  /// the state meanwhile, and counts the update.
  @inlinable @inline(__always)
  final func runChange(_ change: () -> Void) {
    _isApplyingUpdater = true
    change()
    _isApplyingUpdater = false
    _version &+= 1
  }

  /// Applies a scope's `change` to a root nothing observes, which ``_appliesAtOnceUnobserved``
  /// said: marks the root busy around it, so a dispatch from inside it is queued, then runs
  /// what was queued, with the store held (through `root`), if the store is still alive.
  @inlinable @inline(__always)
  final func applyUnobserved(from root: _RootHandle, _ change: () -> Void) {
    _isDispatching = true
    runChange(change)
    _isDispatching = false
    if _hasQueued { root._drainQueue() }
  }
}
