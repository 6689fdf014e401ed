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
      guard keepsOldSlice != oldValue else { return }
      container?.listeningChanged(keepsOldSlice)
      mirror?.needsRebuild = true
    }
  }
  /// Whether the scope keeps its slice for `==`; see `Store.lastSlice`.
  @usableFromInline var keepsLastSlice = false {
    didSet {
      if keepsLastSlice != oldValue { mirror?.needsRebuild = true }
    }
  }
  /// The root's mirror of kept slices, while the node is registered with a root.
  @usableFromInline var mirror: ScopeMirror?
  /// Whether the root's mirror covers this scope: set when the root builds its lists, for a
  /// scope whose slice lies at ``mirrorRange``, is kept for `==`, and has no `(old, new)`
  /// listener (which needs the slice captured before every update).
  @usableFromInline var isMirrorMember = false
  /// Whether the scope keeps a slice now (its `Store.lastSlice` is set).
  @usableFromInline var holdsSlice = false
  /// Whether the mirror holds the bytes of the slice the scope keeps now; any new kept slice
  /// clears it until the root copies the bytes the slice was read from.
  @usableFromInline var isMirrored = false {
    didSet {
      if isMirrorMember, isMirrored != oldValue { mirror?.unmirrored += isMirrored ? -1 : 1 }
    }
  }
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

  /// The root's bytes the slice lies in, when it is a stored property of the root.
  @inlinable
  var mirrorRange: Range<Int>? {
    guard case .bytes(let range) = origin else { return nil }
    return range
  }

  /// Records that the scope replaced or dropped the slice it keeps for `==`.
  @inlinable
  func keptSliceReplaced(isHeld: Bool) {
    holdsSlice = isHeld
    isMirrored = false
  }

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
