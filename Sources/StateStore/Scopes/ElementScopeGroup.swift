import Synchronization

// The groups' storage is in `Unchecked/UncheckedScopeStorage.swift`.

extension _ElementScopeEntry {
  /// Files `node`, the node of a scope of the element `id` or of a scope under it, in the group,
  /// making the group (and registering its node with `registerGroup`) if it has none.
  ///
  /// Inlined where the element scope is made, so that the group, which runs on every update
  /// that touches its array, is specialised for the application's element type.
  @inlinable
  func register<Element: Identifiable & Sendable>(
    _ node: _ScopeNode, id: Element.ID, place: _ElementPlace, origin: _SliceOrigin,
    read: @escaping @MainActor () -> TrackedArray<Element>?,
    peek: _ArrayPeek<Element>?,
    registerGroup: @MainActor (_ScopeNode) -> Void
  ) where Element.ID: Sendable {
    let group: _ElementScopeGroup<Element>
    if let existing = self._group as? _ElementScopeGroup<Element> {
      group = existing
    } else {
      group = _ElementScopeGroup(origin: origin, relay: _relay, read: read, peek: peek)
      self._group = group
      group._entry = self
      registerGroup(group.makeNode())
    }
    group.add(node, id: id, place: place)
  }
}

extension _ElementScopeGroupBase {
  /// Files `bucket` as the one whose element the dispatch about to be applied changes.
  ///
  /// The bucket records the array's stamps around the change itself (see ``_ScopeBucket``);
  /// until it does, the hint names no change, and the next refresh takes the journal's way.
  @inlinable
  func noteDispatch(into bucket: _ScopeBucket) {
    bucket._hint.to = 0
    var previous: _ScopeBucket? = bucket
    // Swapped, not assigned: a bucket dropped here is released after the access. (A bucket
    // off the table holds no node, so its release runs no code of the application's anyway.)
    swap(&_hinted, &previous)
  }

  /// Counts a member that starts or stops listening, and says whether the group does.
  @usableFromInline
  func _listeningChanged(_ isListening: Bool) {
    _listening += isListening ? 1 : -1
    _node?._keepsOldSlice = _listening > 0
  }
}

extension _ScopeBucket {
  /// The nodes filed under the element's id, in the order they joined.
  ///
  /// Read as a copy; set only while the caller's copy holds the nodes it had, so that the
  /// write releases no node's last reference.
  @inlinable
  var _nodes: [_ScopeNode] {
    get {
      guard let _first else { return [] }
      return [_first] + _others
    }
    set {
      _first = newValue.first
      _others = Array(newValue.dropFirst())
    }
  }

  /// Takes the bucket off its group: it no longer holds nodes, so nothing is kept alive by an
  /// element scope that remembers it.
  @inlinable
  func unfile() {
    _isFiled = false
    // Released after the write: a node's release may release its scope, and with it the
    // application's closures.
    let nodes = _nodes
    _nodes = []
    withExtendedLifetime(nodes) {}
  }
}

extension _ElementScopeGroup {
  /// The node the group's holder notifies; it keeps the group alive.
  @inlinable
  func makeNode() -> _ScopeNode {
    let node = _ScopeNode(
      capture: { [self] in captureMembers() },
      refresh: { [self] _origin in refresh(_origin) },
      sweep: { [self] in sweepMembers() })
    self._node = node
    node._onRelease = { [self] node in
      if self._node === node { self._node = nil }
    }
    return node
  }

  /// Adds the node of a scope of the element `id`, or of a scope under it.
  @inlinable
  func add(_ node: _ScopeNode, id: Element.ID, place: _ElementPlace) {
    node._container = self
    if node._keepsOldSlice { _listeningChanged(true) }
    _pending.append(_PendingMember(id: id, node: node, place: place))
  }

  /// Lets the members with `(old, new)` listeners keep their slice from before the update.
  ///
  /// - Complexity: O(members), only while one of them listens.
  @inlinable
  func captureMembers() {
    let table = _members
    for bucket in table.values {
      for node in bucket._nodes where node._keepsOldSlice { node._capture() }
    }
    for member in _pending where member._node._keepsOldSlice { member._node._capture() }
  }

  /// Notifies the members of the elements the update changed; returns false once none is left.
  ///
  /// - Complexity: O(journal capacity + changed elements' members); O(members) when more
  ///   elements changed than the journal holds, or after a member's token was cancelled.
  @inlinable
  func refresh(_ update: _SliceOrigin) -> Bool {
    if let hinted = _hinted, hinted._hint.to != 0 {
      let changed = hinted._hint.to
      hinted._hint.to = 0
      if hinted._isFiled, hinted._hint.from == _lastStamp, _pending.isEmpty,
        _relay._count.load(ordering: .relaxed) == 0, update.mayChange(_origin),
        currentStamp() == changed
      {
        return refreshAlone(hinted, stamp: changed, update)
      }
    }
    var table = takeMembers()
    defer { _members = table }
    if _relay._count.load(ordering: .relaxed) != 0 { _sweep(&table) }
    guard update.mayChange(_origin), let array = _read(), array.currentStamp != _lastStamp else {
      return !table.isEmpty || !_pending.isEmpty
    }
    _round &+= 1
    var emptied: [Element.ID] = []
    let known = array.visitChanges(since: _lastStamp) { id in
      if let bucket = table[id], !refreshNodes(of: bucket, update) { emptied.append(id) }
    }
    if !known {
      for (id, bucket) in table where !refreshNodes(of: bucket, update) { emptied.append(id) }
    }
    _lastStamp = array.currentStamp
    if !emptied.isEmpty { _remove(emptied, from: &table) }
    return !table.isEmpty || !_pending.isEmpty
  }

  /// The array's stamp, read in place; `nil` when the array is gone or cannot be read so.
  @inlinable
  func currentStamp() -> UInt64? {
    var stamp: UInt64?
    _peek?.callAsFunction { stamp = $0.pointee._stamp }
    return stamp
  }

  /// Notifies the members of `bucket`, the one element changed since the last refresh (the
  /// array now carries `stamp`); returns false once the group has no member left.
  ///
  /// - Complexity: O(the element's members).
  @inlinable
  func refreshAlone(_ bucket: _ScopeBucket, stamp: UInt64, _ update: _SliceOrigin) -> Bool {
    _round &+= 1
    _lastStamp = stamp
    guard !refreshNodes(of: bucket, update) else { return true }
    // Rare (a scope's refresh found it had no observer left): the id is found by the bucket.
    var table = takeMembers()
    defer { _members = table }
    let ids = table.compactMap { $0.value === bucket ? $0.key : nil }
    _remove(ids, from: &table)
    return !table.isEmpty || !_pending.isEmpty
  }

  /// Refreshes the nodes of `bucket` in this round, reading them in place (no array is made of
  /// them); false when one of them has no observer left.
  @inlinable
  func refreshNodes(of bucket: _ScopeBucket, _ update: _SliceOrigin) -> Bool {
    guard let first = bucket._first else { return true }
    var allActive = refreshAlone(first, update)
    if !bucket._others.isEmpty {
      for node in bucket._others where !refreshAlone(node, update) { allActive = false }
    }
    return allActive
  }

  /// Refreshes `node` in this round unless it was already; false once it has no observer left.
  @inlinable
  func refreshAlone(_ node: _ScopeNode, _ update: _SliceOrigin) -> Bool {
    guard node._isActive, node._round != _round else { return true }
    node._round = _round
    guard node._refresh(update) else {
      node._isActive = false
      return false
    }
    return true
  }

  /// Sweeps every member after a cancellation; returns whether any is left.
  @inlinable
  func sweepMembers() -> Bool {
    var table = takeMembers()
    defer { _members = table }
    if _relay._count.load(ordering: .relaxed) != 0 { _sweep(&table) }
    return !table.isEmpty || !_pending.isEmpty
  }

  /// Takes the table out, with the members that joined since the last call filed in it.
  ///
  /// While it is out, `members` is empty: nothing reads it until it is put back, because only
  /// the group's node reads it, and the root never notifies inside a notification.
  @inlinable
  func takeMembers() -> [Element.ID: _ScopeBucket] {
    var table = _members
    _members = [:]
    while !_pending.isEmpty {
      let joined = _pending
      _pending = []
      for member in joined {
        let bucket: _ScopeBucket
        if let filed = table[member.id] {
          bucket = filed
        } else {
          bucket = _ScopeBucket()
          table[member.id] = bucket
        }
        if bucket._first == nil {
          bucket._first = member._node
        } else {
          bucket._others.append(member._node)
        }
        member._place.remember(bucket)
      }
    }
    return table
  }

  @usableFromInline
  func _sweep(_ table: inout [Element.ID: _ScopeBucket]) {
    _relay._count.store(0, ordering: .relaxed)
    var emptied: [Element.ID] = []
    for (id, bucket) in table {
      for node in bucket._nodes where node._isActive && !node._sweep() {
        node._isActive = false
        emptied.append(id)
      }
    }
    _remove(emptied, from: &table)
  }

  /// Drops the inactive members of `ids`, after the loops that found them.
  @usableFromInline
  func _remove(_ ids: [Element.ID], from table: inout [Element.ID: _ScopeBucket]) {
    guard !ids.isEmpty else { return }
    // Kept until the writes are over: a dropped member's store may be released with its node,
    // and its deinitializers run after them.
    var dropped: [_ScopeNode] = []
    defer { withExtendedLifetime(dropped) {} }
    for id in ids {
      guard let bucket = table[id] else { continue }
      let nodes = bucket._nodes
      let kept = nodes.filter(\._isActive)
      for node in nodes where !node._isActive {
        if node._keepsOldSlice { _listeningChanged(false) }
        node._container = nil
        dropped.append(node)
      }
      if kept.isEmpty {
        table[id] = nil
        bucket.unfile()
      } else {
        bucket._nodes = kept
      }
    }
  }
}
