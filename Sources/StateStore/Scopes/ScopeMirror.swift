import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The mirror's storage is in `Unchecked/UncheckedScopeStorage.swift`.

extension _ScopeMirror {
  /// Whether the root's bytes at `range` equal the mirror's.
  @inlinable
  func matches(_ root: UnsafeRawPointer, in range: Range<Int>) -> Bool {
    memcmp(root + range.lowerBound, _bytes + range.lowerBound, range.count) == 0
  }

  /// Whether the root's bytes equal the mirror's over every member's slice.
  ///
  /// - Complexity: O(the members' bytes).
  @inlinable
  func matchesEverySpan(_ root: UnsafeRawPointer) -> Bool {
    guard matches(root, in: _firstSpan) else { return false }
    if _otherSpans.isEmpty { return true }
    for span in _otherSpans where !matches(root, in: span) { return false }
    return true
  }

  /// Sets the spans to the sorted, merged union of `ranges`.
  ///
  /// - Complexity: O(*n* log *n*) for *n* ranges.
  func setSpans(covering ranges: [Range<Int>]) {
    var spans = Self.merged(ranges)
    _firstSpan = spans.first ?? 0..<0
    if !spans.isEmpty { spans.removeFirst() }
    _otherSpans = spans
  }

  /// Copies the root's bytes at `range` into the mirror.
  @inlinable
  func take(_ root: UnsafeRawPointer, in range: Range<Int>) {
    (_bytes + range.lowerBound).copyMemory(from: root + range.lowerBound, byteCount: range.count)
  }

  /// The sorted, merged union of `ranges`.
  ///
  /// - Complexity: O(*n* log *n*) for *n* ranges.
  static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
    var merged: [Range<Int>] = []
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = merged.last, range.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    return merged
  }
}

/// How the root notifies its scopes, through the mirror of their kept slices.
extension _RootEngine {
  /// Drops the slices kept for `==` that a scoped dispatch from `origin` may change.
  ///
  /// The dispatch then changes the root's collections in place instead of copying them for a
  /// kept slice; those scopes' subscribers are evaluated, as the bytes say.
  ///
  /// - Complexity: O(scopes with observers).
  @usableFromInline
  func _forgetSlices(changedBy origin: _SliceOrigin) {
    for node in _scopeNodes where node._keepsLastSlice && origin.mayChange(node._origin) {
      node._forgetSlice()
    }
  }

  /// Registers the node of a scope that has observers, to be notified after every update.
  @usableFromInline
  func _addScopeNode(_ node: _ScopeNode, store: Store<S, Dependencies>) {
    node._mirror = _scopeMirror
    _scopeMirror._needsRebuild = true
    _scopeNodes.append(node)
    store._refreshHasObservers()
  }

  /// Lets scopes with `(old, new)` listeners keep their slice from before the update.
  @usableFromInline
  func _captureScopeSlices() {
    for node in _scopeNodes where node._keepsOldSlice { node._capture() }
  }

  /// Notifies the scopes with observers; drops those left without any.
  ///
  /// A scope in the mirror (a stored, `Equatable` slice kept for `==`) is skipped when the
  /// root's bytes at its slice still equal the kept slice's (see ``ScopeMirror``): when all
  /// of them do, which one comparison of the mirrored bytes tells, only the scopes outside the
  /// mirror are visited. After a cancellation in any scope every scope is visited once, since
  /// a visit sweeps.
  ///
  /// - Complexity: O(the mirrored bytes + the scopes outside the mirror) when no mirrored
  ///   slice changed; otherwise O(scopes with observers, the element scopes of one array
  ///   counting as one group). Plus what each visited scope's subscribers cost when its slice
  ///   may have changed; a group costs the journal's length plus the scopes of the elements
  ///   that changed.
  @inlinable
  func notifyScopes(origin: () -> _SliceOrigin, store: Store<S, Dependencies>) {
    let mirror = _scopeMirror
    if mirror._needsRebuild { _rebuildMirror(mirror) }
    if mirror._cancellations._count.load(ordering: .relaxed) != 0 {
      mirror._cancellations._count.store(0, ordering: .relaxed)
      _refreshScopes(_scopeNodes, origin: origin(), skippingMirrored: nil, store: store)
    } else if mirror._unmirrored == 0, mirroredBytesMatch(mirror, in: nil) {
      if !_unmirroredScopeNodes.isEmpty {
        _refreshScopes(_unmirroredScopeNodes, origin: origin(), skippingMirrored: nil, store: store)
      }
    } else {
      _refreshScopes(_scopeNodes, origin: origin(), skippingMirrored: mirror, store: store)
    }
  }

  /// Refreshes `nodes`, except, with a mirror, the mirrored ones whose bytes match; copies the
  /// bytes of each member's newly kept slice into the mirror; drops the nodes left without
  /// observers.
  @usableFromInline
  func _refreshScopes(
    _ nodes: [_ScopeNode], origin: _SliceOrigin, skippingMirrored: _ScopeMirror?,
    store: Store<S, Dependencies>
  ) {
    var emptied = false
    for node in nodes {
      if let mirror = skippingMirrored, node._isMirrorMember, node._isMirrored,
        mirroredBytesMatch(mirror, in: node.mirrorRange)
      {
        continue
      }
      if !node._refresh(origin) {
        node._isActive = false
        emptied = true
      } else if node._isMirrorMember, node._holdsSlice, !node._isMirrored,
        let range = node.mirrorRange
      {
        // The scope took its slice from the root during this refresh, and the root cannot
        // change while it notifies (a dispatch from a subscriber is queued), so these bytes
        // are the kept slice's.
        _ScopeLink<S>.withAddress(of: &_currentState) { _scopeMirror.take($0, in: range) }
        node._isMirrored = true
      }
    }
    guard emptied else { return }
    // Released only after the write: see the observer lists' rule at the top of this file.
    let before = _scopeNodes
    defer { withExtendedLifetime(before) {} }
    _scopeNodes.removeAll { !$0._isActive }
    _rebuildMirror(_scopeMirror)
    store._refreshHasObservers()
  }

  /// Whether the root's bytes equal the mirror's at `range`, or over every member's slice.
  ///
  /// An access to `currentState` beside the updater's, as in `peekState(_:)`: it compares bytes
  /// and calls no code of the application's.
  ///
  /// - Complexity: O(the bytes compared).
  @inlinable
  func mirroredBytesMatch(_ mirror: _ScopeMirror, in range: Range<Int>?) -> Bool {
    var matches = false
    _ScopeLink<S>.withAddress(of: &_currentState) { root in
      matches = range.map { mirror.matches(root, in: $0) } ?? mirror.matchesEverySpan(root)
    }
    return matches
  }

  /// Sorts the scope nodes into the mirror's members and the rest.
  ///
  /// A node that joins keeps no mirrored bytes until its next refresh copies them.
  ///
  /// - Complexity: O(*n* log *n*) for *n* scopes with observers.
  @usableFromInline
  func _rebuildMirror(_ mirror: _ScopeMirror) {
    mirror._needsRebuild = false
    var ranges: [Range<Int>] = []
    var others: [_ScopeNode] = []
    var unmirrored = 0
    for node in _scopeNodes {
      let wasMember = node._isMirrorMember
      node._isMirrorMember = false
      guard let range = node.mirrorRange, node._keepsLastSlice, !node._keepsOldSlice,
        range.upperBound <= mirror._size
      else {
        node._isMirrored = false
        others.append(node)
        continue
      }
      if !wasMember { node._isMirrored = false }
      node._isMirrorMember = true
      ranges.append(range)
      if !node._isMirrored { unmirrored += 1 }
    }
    mirror.setSpans(covering: ranges)
    mirror._unmirrored = unmirrored
    // Released only after the write: a node dropped from `scopeNodes` may be the last
    // reference, and its scope's release runs the application's deinitializers.
    let before = _unmirroredScopeNodes
    defer { withExtendedLifetime(before) {} }
    _unmirroredScopeNodes = others
  }
}
