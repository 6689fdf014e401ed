/// A scope's registration while the scope has listeners or subscribers: with its root, or, for
/// a scope at or under an element scope, with its element's ``ElementScopeGroup``.
///
/// Whoever holds it keeps the scoped store alive, so a subscription token keeps working even
/// when nobody holds the scope itself; once the scope has no observers left the node is
/// dropped, and with it the scope.
@usableFromInline
@MainActor
package final class ScopeNode {
  /// Whether the scope has `(old, new)` listeners, so the root must capture the slice first.
  @usableFromInline var keepsOldSlice = false {
    didSet {
      if keepsOldSlice != oldValue { container?.listeningChanged(keepsOldSlice) }
    }
  }
  /// Whether the scope keeps its slice for `==`; see `Store.lastSlice`.
  @usableFromInline var keepsLastSlice = false
  /// False once the scope has no observers; its holder then drops the node.
  @usableFromInline var isActive = true
  /// The element group holding the node, told when ``keepsOldSlice`` changes.
  @usableFromInline weak var container: ElementScopeGroupBase?
  /// The group's notification round the node was last refreshed in: an element the journal
  /// names twice is refreshed once.
  @usableFromInline var round: UInt64 = 0
  @usableFromInline let capture: @MainActor () -> Void
  @usableFromInline let refresh: @MainActor (SliceOrigin) -> Bool
  /// Sweeps the scope's cancelled subscriptions; returns whether it still has observers.
  @usableFromInline let sweep: @MainActor () -> Bool
  /// Where the scope's slice lies in the root.
  @usableFromInline let origin: SliceOrigin
  /// Drops the slice kept for `==`, before an update that may change it in place.
  @usableFromInline let forgetSlice: @MainActor () -> Void

  @usableFromInline
  init(
    capture: @escaping @MainActor () -> Void,
    refresh: @escaping @MainActor (SliceOrigin) -> Bool,
    sweep: @escaping @MainActor () -> Bool, origin: SliceOrigin = .everything,
    forgetSlice: @escaping @MainActor () -> Void = {}
  ) {
    self.capture = capture
    self.refresh = refresh
    self.sweep = sweep
    self.origin = origin
    self.forgetSlice = forgetSlice
  }
}
