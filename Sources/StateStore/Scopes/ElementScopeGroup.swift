import Synchronization

/// Where a link keeps the element scopes of one of its arrays: the log their cancellations are
/// relayed to, made with the first element scope, and their group while it has members.
///
/// The group is held by its own node (with the root, or with an enclosing group), not here: a
/// strong reference would make a cycle through the members' links, which hold their parent.
@usableFromInline
@MainActor
package final class _ElementScopeEntry {
  @usableFromInline let _relay: _CancellationLog
  /// The group, while it has members.
  ///
  /// Not a weak reference, which would give the group a side table, and every retain and
  /// release of it, on every update that touches its array, the runtime's slow path.
  // Unchecked lifetime: set by `register`, to the group it has just made and holds, and cleared
  // by that group's isolated deinitializer as it begins (`ElementScopeGroupBase.deinit`); every
  // access is on the main actor. The proof of `Store.ownScopeNode` applies as it is. Tests:
  // `ScopeNodeLifetimeTests`.
  // Unchecked access: read on every dispatch through an element scope. Read by copy and written
  // by assignment of an unowned(unsafe) reference, which retains, releases and calls nothing,
  // so no access to it spans a call and none can overlap another.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline unowned(unsafe) var _group: _ElementScopeGroupBase?

  @usableFromInline
  init(relay: _CancellationLog) {
    self._relay = relay
  }

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

/// What an ``_ElementScopeGroup`` is, whatever its element type.
@usableFromInline
@MainActor
package class _ElementScopeGroupBase {
  /// How many members have `(old, new)` listeners.
  private var listening = 0
  /// The group's own node; it holds the group.
  ///
  /// Not a weak reference, which would give the node a side table (see `Store.ownScopeNode`).
  // Unchecked lifetime: set to the node `makeNode()` has just made, and cleared by that node's
  // isolated deinitializer as it begins (`onRelease`); every access is on the main actor. The
  // proof of `Store.ownScopeNode` applies as it is. Tests: `ScopeNodeLifetimeTests`.
  @usableFromInline unowned(unsafe) var _node: _ScopeNode?

  /// The entry that refers to the group, told when the group goes.
  @usableFromInline var _entry: _ElementScopeEntry?
  /// The bucket of the element that the latest dispatch through an element scope changed, for
  /// the next refresh to notify without reading the journal (see ``_ScopeBucket``).
  // Unchecked: written only by `noteDispatch(into:)`, by a swap whose released value is
  // dropped after the access, and read by copy; every access is on the main actor.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _hinted: _ScopeBucket?

  /// Files `bucket` as the one whose element the dispatch about to be applied changes.
  ///
  /// The bucket records the array's stamps around the change itself (see ``_ScopeBucket``);
  /// until it does, the hint names no change, and the next refresh takes the journal's way.
  @inlinable
  func noteDispatch(into bucket: _ScopeBucket) {
    bucket._hintTo = 0
    var previous: _ScopeBucket? = bucket
    // Swapped, not assigned: a bucket dropped here is released after the access. (A bucket
    // off the table holds no node, so its release runs no code of the application's anyway.)
    swap(&_hinted, &previous)
  }

  @usableFromInline
  init() {}

  // Isolated, so that the entry's reference, read on the main actor, is cleared before the
  // group is destroyed (see `ElementScopeEntry.group`).
  isolated deinit {
    if let _entry, _entry._group === self { _entry._group = nil }
  }

  /// Counts a member that starts or stops listening, and says whether the group does.
  @usableFromInline
  func _listeningChanged(_ isListening: Bool) {
    listening += isListening ? 1 : -1
    _node?._keepsOldSlice = listening > 0
  }
}

/// The members of one element of an ``_ElementScopeGroup``: the nodes filed under its id.
///
/// Each element scope remembers the bucket it was filed in (`ElementPlace.bucket`), so that a
/// dispatch through it can tell the group which members to notify without the group copying
/// the array, reading its journal or hashing the id: the change applied at once, the bucket
/// records the array's stamps just before and just after it (``_hintFrom``, ``_hintTo``), and
/// the group's next refresh notifies the bucket alone when its last stamp is the first and the
/// array's stamp is still the second. Stamps are unique in the process and renewed by every
/// change of an element, and a change made through an element scope whose layout stamp holds
/// notes exactly one element, so those two equalities say that this element is the only one
/// changed since the group last looked. Anything else takes the journal's way.
@usableFromInline
@MainActor
final class _ScopeBucket {
  // `first`, `isFiled`, `hintFrom` and `hintTo` skip the run-time exclusivity check (read on
  // every notification of the element): plain main-actor values, read by copy and written by
  // assignment (replacing `first` releases at most a node, our own object, whose release runs
  // none of the application's code); no access calls anything. `others`, an array, is checked.
  // Tests: `ElementScopeDispatchTests`.
  /// The first node filed under the element's id: most elements have one scope, whose node is
  /// then reached without an array's buffer (one object less to fetch on every notification).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _first: _ScopeNode?
  /// The nodes filed after the first, in the order they joined.
  @usableFromInline var _others: [_ScopeNode] = []

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
  /// False once the group dropped the bucket (no member left) or went: its element scopes then
  /// take the journal's way until they are filed again.
  // Unchecked: see above `first`.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _isFiled = true
  /// The array's stamp just before the latest dispatch through one of the bucket's scopes.
  // Unchecked: see above `first`.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _hintFrom: UInt64 = 0
  /// The array's stamp just after that dispatch, or 0 while none is recorded.
  // Unchecked: see above `first`.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _hintTo: UInt64 = 0

  @inlinable
  init() {}

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

/// The element scopes of one `TrackedArray`, and the scopes under them, notified only for the
/// elements an update changed.
///
/// The root, or the enclosing group, holds one node for the whole group; on each update that
/// may have touched the array, the group reads the array's change journal (as row subscriptions
/// do, see `ElementGroup`) and refreshes the members of the elements it names. A thousand
/// element scopes cost what the changed rows' scopes cost.
///
/// The members are keyed by the element's id, whose `hash(into:)` and `==` are the app's: they
/// run only on the group's own copy of the table, taken out for the length of a refresh, so no
/// access to anything the store shares is open while they run, and a member that joins from
/// inside them (or from any callback) waits in ``_pending`` until the next refresh.
@usableFromInline
@MainActor
final class _ElementScopeGroup<Element: Identifiable & Sendable>: _ElementScopeGroupBase
where Element.ID: Sendable {
  /// Where the array lies in the root.
  @usableFromInline let _origin: _SliceOrigin
  /// Set by every member's cancellations: the members of unchanged elements are not visited,
  /// so they are swept when this says one was cancelled.
  @usableFromInline let _relay: _CancellationLog
  /// The array as it is now, or `nil` once its parent is gone.
  @usableFromInline let _read: @MainActor () -> TrackedArray<Element>?
  /// Reads the array in place, for its ``TrackedArray/currentStamp``, when the array is stored
  /// inline in its parent; `nil` otherwise (no dispatch then leaves a hint).
  @usableFromInline let _peek: _ArrayPeek<Element>?
  @usableFromInline var _members: [Element.ID: _ScopeBucket] = [:]
  /// Members that joined since the last refresh.
  @usableFromInline var _pending: [_PendingMember] = []
  // Unchecked: a plain value, read by copy and written by assignment, on the main actor; no
  // access spans a call. Read on every dispatch through an element scope.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _lastStamp: UInt64
  // Unchecked: a plain value; see `lastStamp`.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _round: UInt64 = 0

  /// A member that joined since the last refresh.
  @usableFromInline
  struct _PendingMember {
    @usableFromInline let id: Element.ID
    @usableFromInline let _node: _ScopeNode
    /// Where the member's element scope remembers its bucket.
    @usableFromInline let _place: _ElementPlace

    @inlinable
    init(id: Element.ID, node: _ScopeNode, place: _ElementPlace) {
      self.id = id
      self._node = node
      self._place = place
    }
  }

  @inlinable
  init(
    origin: _SliceOrigin, relay: _CancellationLog,
    read: @escaping @MainActor () -> TrackedArray<Element>?,
    peek: _ArrayPeek<Element>?
  ) {
    self._origin = origin
    self._relay = relay
    self._read = read
    self._peek = peek
    self._lastStamp = read()?.currentStamp ?? 0
    super.init()
  }

  // Isolated, so that the members' references to the group (`ScopeNode.container`), read on the
  // main actor, are cleared before the group is destroyed.
  isolated deinit {
    let table = _members
    for bucket in table.values {
      for node in bucket._nodes { node._container = nil }
      // Its element scopes may remember it: it must not keep their nodes alive.
      bucket.unfile()
    }
    for member in _pending { member._node._container = nil }
  }

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
    if let hinted = _hinted, hinted._hintTo != 0 {
      let changed = hinted._hintTo
      hinted._hintTo = 0
      if hinted._isFiled, hinted._hintFrom == _lastStamp, _pending.isEmpty,
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
