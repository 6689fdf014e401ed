/// A scope's registration while the scope has listeners or subscribers: with its root, or, for
/// a scope at or under an element scope, with its element's ``ElementScopeGroup``.
///
/// Whoever holds it keeps the scoped store alive, so a subscription token keeps working even
/// when nobody holds the scope itself; once the scope has no observers left the node is
/// dropped, and with it the scope.
@usableFromInline
@MainActor
package final class _ScopeNode {
  /// Whether the scope has `(old, new)` listeners, so the root must capture the slice first.
  @usableFromInline var _keepsOldSlice = false {
    didSet {
      guard _keepsOldSlice != oldValue else { return }
      _container?._listeningChanged(_keepsOldSlice)
      _mirror?._needsRebuild = true
    }
  }
  /// Whether the scope keeps its slice for `==`; see `Store.lastSlice`.
  @usableFromInline var _keepsLastSlice = false {
    didSet {
      if _keepsLastSlice != oldValue { _mirror?._needsRebuild = true }
    }
  }
  /// The root's mirror of kept slices, while the node is registered with a root.
  @usableFromInline var _mirror: _ScopeMirror?
  /// Whether the root's mirror covers this scope: set when the root builds its lists, for a
  /// scope whose slice lies at ``mirrorRange``, is kept for `==`, and has no `(old, new)`
  /// listener (which needs the slice captured before every update).
  @usableFromInline var _isMirrorMember = false
  /// Whether the scope keeps a slice now (its `Store.lastSlice` is set).
  @usableFromInline var _holdsSlice = false
  /// Whether the mirror holds the bytes of the slice the scope keeps now; any new kept slice
  /// clears it until the root copies the bytes the slice was read from.
  @usableFromInline var _isMirrored = false {
    didSet {
      if _isMirrorMember, _isMirrored != oldValue { _mirror?._unmirrored += _isMirrored ? -1 : 1 }
    }
  }
  /// False once the scope has no observers; its holder then drops the node.
  @usableFromInline var _isActive = true
  /// The element group holding the node, told when ``keepsOldSlice`` changes.
  @usableFromInline weak var _container: _ElementScopeGroupBase?
  /// The group's notification round the node was last refreshed in: an element the journal
  /// names twice is refreshed once.
  @usableFromInline var _round: UInt64 = 0
  @usableFromInline let _capture: @MainActor () -> Void
  @usableFromInline let _refresh: @MainActor (_SliceOrigin) -> Bool
  /// Sweeps the scope's cancelled subscriptions; returns whether it still has observers.
  @usableFromInline let _sweep: @MainActor () -> Bool
  /// Where the scope's slice lies in the root.
  @usableFromInline let _origin: _SliceOrigin
  /// Drops the slice kept for `==`, before an update that may change it in place.
  @usableFromInline let _forgetSlice: @MainActor () -> Void

  /// The root's bytes the slice lies in, when it is a stored property of the root.
  @inlinable
  var mirrorRange: Range<Int>? {
    guard case .bytes(let range) = _origin else { return nil }
    return range
  }

  /// Records that the scope replaced or dropped the slice it keeps for `==`.
  @inlinable
  func keptSliceReplaced(isHeld: Bool) {
    _holdsSlice = isHeld
    _isMirrored = false
  }

  @usableFromInline
  init(
    capture: @escaping @MainActor () -> Void,
    refresh: @escaping @MainActor (_SliceOrigin) -> Bool,
    sweep: @escaping @MainActor () -> Bool, origin: _SliceOrigin = .everything,
    forgetSlice: @escaping @MainActor () -> Void = {}
  ) {
    self._capture = capture
    self._refresh = refresh
    self._sweep = sweep
    self._origin = origin
    self._forgetSlice = forgetSlice
  }
}
