/// Observers that the store notifies as one, once per update: the subscribers of one selection
/// (``_SelectionGroup``), the state-change observers (``_StateChangeGroup``), or the subscribers
/// of one array's elements (``_ElementGroup``).
///
/// Every group of the store is built one way, described here once. The store holds the groups
/// by a base type and calls three operations: ``refresh(_:version:)`` on every update,
/// ``removeCancelled()`` in the sweep before an update, and ``isEmpty`` after the sweep. Each
/// operation is a closure that the group's own type gives the initializer, from an
/// `@inlinable` initializer that the subscribing call (`@inlinable` too) runs in the module
/// that subscribes: the closure is compiled there, specialised for that module's state, value
/// and element types. An overridden method would instead be compiled once, in this module, as
/// generic code that looks up the types' run-time metadata at every call: on the delivery
/// path, as much again as the rest of a delivery. So no group overrides anything.
///
/// A closure gets the group it belongs to as its argument, and turns it back into the group's
/// own type with `unsafeDowncast`. The downcast cannot fail: the initializer that forms a
/// closure stores it only in the group it makes, and only this class's methods call it,
/// passing `self`. The closures capture nothing, so they need no `unowned` reference, make no
/// cycle, and are constants (`let`), which the store reads without an exclusivity check.
///
/// A token's release follows the same pattern for the same reason (``_SubscriberTableBase``).
@usableFromInline
@MainActor
class _ObserverGroup<S: State> {
  /// Evaluates what the group's observers watch in `state` and tells each one whose value
  /// changed; `version` is the store's, so that groups sharing a state read it once.
  @usableFromInline let _refreshBody: @MainActor (_ObserverGroup<S>, S, UInt64) -> Void
  /// Drops the cancelled observers; returns whether none is left.
  @usableFromInline let _removeCancelledBody: @MainActor (_ObserverGroup<S>) -> Bool
  /// Whether the group has no observer left.
  @usableFromInline let _isEmptyBody: @MainActor (_ObserverGroup<S>) -> Bool

  @usableFromInline
  init(
    refresh: @escaping @MainActor (_ObserverGroup<S>, S, UInt64) -> Void,
    removeCancelled: @escaping @MainActor (_ObserverGroup<S>) -> Bool,
    isEmpty: @escaping @MainActor (_ObserverGroup<S>) -> Bool
  ) {
    self._refreshBody = refresh
    self._removeCancelledBody = removeCancelled
    self._isEmptyBody = isEmpty
  }

  /// Tells the observers about `state`, the store's state at `version`.
  @inlinable
  final func refresh(_ state: S, version: UInt64) {
    _refreshBody(self, state, version)
  }

  /// Drops the cancelled observers; returns whether the group is now empty.
  @inlinable
  final func removeCancelled() -> Bool {
    _removeCancelledBody(self)
  }

  /// Whether the group has no observer left.
  @inlinable
  final var isEmpty: Bool { _isEmptyBody(self) }
}
