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
    _ node: _ScopeNode, id: Element.ID, origin: _SliceOrigin,
    read: @escaping @MainActor () -> TrackedArray<Element>?,
    registerGroup: @MainActor (_ScopeNode) -> Void
  ) where Element.ID: Sendable {
    let group: _ElementScopeGroup<Element>
    if let existing = self._group as? _ElementScopeGroup<Element> {
      group = existing
    } else {
      group = _ElementScopeGroup(origin: origin, relay: _relay, read: read)
      self._group = group
      group._entry = self
      registerGroup(group.makeNode())
    }
    group.add(node, id: id)
  }
}

/// What an ``ElementScopeGroup`` is, whatever its element type.
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
/// inside them (or from any callback) waits in ``pending`` until the next refresh.
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
  // The four fields below skip the run-time exclusivity check (several begin and end accesses
  // per update, each as much as a member's refresh) because no two accesses to one of them can
  // overlap, even when the application's code (an id's `hash(into:)` or `==`, a subscriber, a
  // `deinit`) subscribes or dispatches; all of it is main-actor state:
  // - `members` is read only by copying it (`takeMembers()`, `captureMembers()`) and written by
  //   assignment: `takeMembers()` empties it while its copy holds the table, and the refresh
  //   puts the table back over that empty value, so no write releases a member and no
  //   deinitializer runs inside an access; the ids' hashing runs on the copy;
  // - `pending` is appended to (`add`) and read by copy, and emptied only while a copy holds
  //   what it had, for the same reason;
  // - `lastStamp` and `round` are plain values, read by copy and written by assignment.
  // Tests: `ScopeNotificationTests` ("an id whose hash subscribes and dispatches while element
  // scopes are notified", "element scopes whose tokens are cancelled are released by the next
  // update").
  @exclusivity(unchecked) @usableFromInline var _members: [Element.ID: [_ScopeNode]] = [:]
  /// Members that joined since the last refresh.
  // Unchecked: see above `members`.
  @exclusivity(unchecked) @usableFromInline var _pending: [_PendingMember] = []
  // Unchecked: see above `members`.
  @exclusivity(unchecked) @usableFromInline var _lastStamp: UInt64
  // Unchecked: see above `members`.
  @exclusivity(unchecked) @usableFromInline var _round: UInt64 = 0

  /// A member that joined since the last refresh.
  @usableFromInline
  struct _PendingMember {
    @usableFromInline let id: Element.ID
    @usableFromInline let _node: _ScopeNode

    @inlinable
    init(id: Element.ID, node: _ScopeNode) {
      self.id = id
      self._node = node
    }
  }

  @inlinable
  init(
    origin: _SliceOrigin, relay: _CancellationLog,
    read: @escaping @MainActor () -> TrackedArray<Element>?
  ) {
    self._origin = origin
    self._relay = relay
    self._read = read
    self._lastStamp = read()?.currentStamp ?? 0
    super.init()
  }

  // Isolated, so that the members' references to the group (`ScopeNode.container`), read on the
  // main actor, are cleared before the group is destroyed.
  isolated deinit {
    for nodes in _members.values {
      for node in nodes { node._container = nil }
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
  func add(_ node: _ScopeNode, id: Element.ID) {
    node._container = self
    if node._keepsOldSlice { _listeningChanged(true) }
    _pending.append(_PendingMember(id: id, node: node))
  }

  /// Lets the members with `(old, new)` listeners keep their slice from before the update.
  ///
  /// - Complexity: O(members), only while one of them listens.
  @inlinable
  func captureMembers() {
    let table = _members
    for nodes in table.values {
      for node in nodes where node._keepsOldSlice { node._capture() }
    }
    for member in _pending where member._node._keepsOldSlice { member._node._capture() }
  }

  /// Notifies the members of the elements the update changed; returns false once none is left.
  ///
  /// - Complexity: O(journal capacity + changed elements' members); O(members) when more
  ///   elements changed than the journal holds, or after a member's token was cancelled.
  @inlinable
  func refresh(_ update: _SliceOrigin) -> Bool {
    var table = takeMembers()
    defer { _members = table }
    if _relay._count.load(ordering: .relaxed) != 0 { _sweep(&table) }
    guard update.mayChange(_origin), let array = _read(), array.currentStamp != _lastStamp else {
      return !table.isEmpty || !_pending.isEmpty
    }
    _round &+= 1
    var emptied: [Element.ID] = []
    let known = array.visitChanges(since: _lastStamp) { id in
      if let nodes = table[id] { refresh(nodes, of: id, update, emptied: &emptied) }
    }
    if !known {
      for (id, nodes) in table { refresh(nodes, of: id, update, emptied: &emptied) }
    }
    _lastStamp = array.currentStamp
    if !emptied.isEmpty { _remove(emptied, from: &table) }
    return !table.isEmpty || !_pending.isEmpty
  }

  @inlinable
  func refresh(
    _ nodes: [_ScopeNode], of id: Element.ID, _ update: _SliceOrigin, emptied: inout [Element.ID]
  ) {
    for node in nodes where node._isActive && node._round != _round {
      node._round = _round
      if !node._refresh(update) {
        node._isActive = false
        emptied.append(id)
      }
    }
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
  func takeMembers() -> [Element.ID: [_ScopeNode]] {
    var table = _members
    _members = [:]
    while !_pending.isEmpty {
      let joined = _pending
      _pending = []
      for member in joined { table[member.id, default: []].append(member._node) }
    }
    return table
  }

  @usableFromInline
  func _sweep(_ table: inout [Element.ID: [_ScopeNode]]) {
    _relay._count.store(0, ordering: .relaxed)
    var emptied: [Element.ID] = []
    for (id, nodes) in table {
      for node in nodes where node._isActive && !node._sweep() {
        node._isActive = false
        emptied.append(id)
      }
    }
    _remove(emptied, from: &table)
  }

  /// Drops the inactive members of `ids`, after the loops that found them.
  @usableFromInline
  func _remove(_ ids: [Element.ID], from table: inout [Element.ID: [_ScopeNode]]) {
    guard !ids.isEmpty else { return }
    // Kept until the writes are over: a dropped member's store may be released with its node,
    // and its deinitializers run after them.
    var dropped: [_ScopeNode] = []
    defer { withExtendedLifetime(dropped) {} }
    for id in ids {
      guard let nodes = table[id] else { continue }
      let kept = nodes.filter(\._isActive)
      for node in nodes where !node._isActive {
        if node._keepsOldSlice { _listeningChanged(false) }
        node._container = nil
        dropped.append(node)
      }
      table[id] = kept.isEmpty ? nil : kept
    }
  }
}
