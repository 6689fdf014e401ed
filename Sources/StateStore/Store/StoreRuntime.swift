// What a store runs on. A `Store` is one façade over two roles: a root owns the state, a scope
// is a window on a slice of its root's. Each store holds exactly one runtime, made with it and
// never replaced: the root's engine (`_RootEngine`, `Store/RootEngine.swift`) or a scope's
// link (`_ScopeLink`, `Scopes/ScopeLink.swift`), which keeps the scope's fields. Everything the
// two roles do differently is a requirement of `_StoreRuntime`, which each implements, so the
// façade asks
// "root or scope?" only where a call would cost more than the work: the dispatch fast path, the
// state's read, and the few places that need the engine's or the link's own type, through the
// accessors at the head of `Store/Store+Dispatch.swift` (`_runtime`, `_isRoot`, `_rootEngine`).

/// The runtime behind a ``Store``: the root's engine, or a scope's link.
///
/// Each requirement is what a store asks its role; ``_RootEngine`` and ``_ScopeLink`` are the
/// only conforming types. A requirement that needs the store is given it (`store`), generic
/// over its dependencies, which the root's engine knows already: a root's engine is asked only
/// by its own store (see `_RootEngine._own(_:)`).
@usableFromInline
@MainActor
package protocol _StoreRuntime<S>: AnyObject {
  /// The state's type.
  associatedtype S: State
  /// The state as this store sees it; `nil` once a scope's slice is gone.
  func _liveState() -> S?
  /// What the store's selection groups cache their values against.
  var _subscriptionVersion: UInt64 { get }
  /// Whether the root is inside an updater's `inout` access to its state.
  var _isInsideUpdater: Bool { get }
  /// Whether a dispatchable sent now would reach the end of the chain at once, unchanged.
  var _reachesEndAtOnce: Bool { get }
  /// The scope's path from the root; `nil` at the root.
  var _scopePath: String? { get }
  /// Why the scope's slice is gone, or `nil` while it is there (always at the root).
  func _dropReasonNow() -> ScopeDispatchDroppedError.Reason?
  /// The root store, as its scopes reach it: `store` itself at the root; `nil` once a scope's
  /// root is released.
  func _root<D: Sendable>(of store: Store<S, D>) -> (any _ScopeRoot)?
  /// Sends `dispatchable`, whose type is known only at run time.
  func _dispatch<D: Sendable>(
    any dispatchable: any Dispatchable, site: DispatchSite, store: Store<S, D>)
  /// Sends `dispatchable` through the root's interceptors, handing what reaches the end to
  /// `perform`.
  func _intercept<D: Sendable>(
    _ dispatchable: any Dispatchable, admission: _ScopeAdmission?,
    then perform: @escaping @MainActor (any Dispatchable) -> Bool, store: Store<S, D>)
  /// Runs `callback`, user code called outside a dispatch, with the root marked busy.
  func _runAsCallback<D: Sendable>(_ callback: () -> Void, store: Store<S, D>)
  /// Registers `observer` of the updaters the root applies for this store.
  func _observeUpdates<D: Sendable>(
    _ observer: @escaping @MainActor (AppliedUpdate<S>) -> Void, store: Store<S, D>
  ) -> Subscription
  /// What follows a change of the store's own observers.
  func _observersChanged<D: Sendable>(store: Store<S, D>)
  /// What the store's deinitializer does first, before it releases its listeners.
  func _storeIsGoing()
  /// What the store's deinitializer does last.
  func _storeIsGone()
}
