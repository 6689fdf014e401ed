/// The part of a root's engine that does not depend on its types: the dispatch flags, the
/// update count, and the address of the state.
///
/// A scope knows its own slice's type, not the root's, and reaches the root through a handle
/// (``RootHandle``) that does not know the root's types either. Through this class it applies
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
  /// What runs after a change of the state: decided once, whenever observers, the journal or
  /// scopes come and go (`_RootEngine._refreshFlags(store:)`), and read by every way a change
  /// is applied.
  // Unchecked: a plain value (see the top of `RootEngine.swift`), read by copy and written by
  // assignment.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _afterChange = _AfterChange.nothing
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

  /// Whether anything at all must run after an updater is applied: the store's own observers,
  /// update observers, the journal, or scopes with observers.
  @inlinable
  final var _hasObservers: Bool { _afterChange.path != .updaterAlone }

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

  /// Applies a scope's `change` to a root nothing observes, which ``appliesAtOnceUnobserved``
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

/// What runs after a change of a root's state.
///
/// One value, recomputed when the root's observers, its update observers or its scopes with
/// observers come and go, so that every way a change is applied (the root's `dispatch`, a
/// queued updater, a scope's change in place, the unobserved scoped path) switches on the same
/// answer, and a new kind of observer changes one place: `_RootEngine._refreshFlags(store:)`.
@usableFromInline
struct _AfterChange: Equatable, Sendable {
  /// The path a change takes.
  @usableFromInline
  enum Path: UInt8, Sendable {
    /// Nothing observes the root: the updater runs alone.
    case updaterAlone
    /// The journal alone: the updater runs, then the journal is told, with its cause.
    case journalAlone
    /// Listeners, subscribers or scopes, and nothing that sees each updater as a value.
    case notify
    /// Update observers, or the journal beside other observers: each updater is boxed for
    /// them, then the rest are notified.
    case recordAndNotify
  }

  /// The path a change takes.
  @usableFromInline var path: Path
  /// Whether the state from before the change is kept: a listener of the root, or of a scope,
  /// wants `(old, new)`.
  @usableFromInline var keepsOldState: Bool
  /// Whether a scope keeps its slice for `==` (see `Store.lastSlice`): a scope's in-place
  /// change that may change such a slice drops it first, so that it mutates without copying.
  @usableFromInline var scopesKeepSlices: Bool

  /// Nothing runs after a change.
  @usableFromInline static let nothing = _AfterChange(
    path: .updaterAlone, keepsOldState: false, scopesKeepSlices: false)

  @usableFromInline
  init(path: Path, keepsOldState: Bool, scopesKeepSlices: Bool) {
    self.path = path
    self.keepsOldState = keepsOldState
    self.scopesKeepSlices = scopesKeepSlices
  }

  /// Whether something sees each updater as a value, with its cause: update observers or the
  /// journal.
  @inlinable
  var recordsUpdaters: Bool { path == .journalAlone || path == .recordAndNotify }
}
