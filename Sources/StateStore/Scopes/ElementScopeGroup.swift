import Synchronization

/// Where a link keeps the element scopes of one of its arrays: the log their cancellations are
/// relayed to, made with the first element scope, and their group while it has members.
///
/// The group is held by its own node (with the root, or with an enclosing group), not here: a
/// strong reference would make a cycle through the members' links, which hold their parent.
@usableFromInline
@MainActor
package final class ElementScopeEntry {
  @usableFromInline let relay: CancellationLog
  @usableFromInline weak var group: ElementScopeGroupBase?

  @usableFromInline
  init(relay: CancellationLog) {
    self.relay = relay
  }

  /// Files `node`, the node of a scope of the element `id` or of a scope under it, in the group,
  /// making the group (and registering its node with `registerGroup`) if it has none.
  ///
  /// Inlined where the element scope is made, so that the group, which runs on every update
  /// that touches its array, is specialised for the application's element type.
  @inlinable
  func register<Element: Identifiable & Sendable>(
    _ node: ScopeNode, id: Element.ID, origin: SliceOrigin,
    read: @escaping @MainActor () -> TrackedArray<Element>?,
    registerGroup: @MainActor (ScopeNode) -> Void
  ) where Element.ID: Sendable {
    let group: ElementScopeGroup<Element>
    if let existing = self.group as? ElementScopeGroup<Element> {
      group = existing
    } else {
      group = ElementScopeGroup(origin: origin, relay: relay, read: read)
      self.group = group
      registerGroup(group.makeNode())
    }
    group.add(node, id: id)
  }
}

/// What an ``ElementScopeGroup`` is, whatever its element type.
@usableFromInline
@MainActor
package class ElementScopeGroupBase {
  /// How many members have `(old, new)` listeners.
  private var listening = 0
  /// The group's own node; it holds the group.
  @usableFromInline weak var node: ScopeNode?

  @usableFromInline
  init() {}

  /// Counts a member that starts or stops listening, and says whether the group does.
  @usableFromInline
  func listeningChanged(_ isListening: Bool) {
    listening += isListening ? 1 : -1
    node?.keepsOldSlice = listening > 0
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
final class ElementScopeGroup<Element: Identifiable & Sendable>: ElementScopeGroupBase
where Element.ID: Sendable {
  /// Where the array lies in the root.
  @usableFromInline let origin: SliceOrigin
  /// Set by every member's cancellations: the members of unchanged elements are not visited,
  /// so they are swept when this says one was cancelled.
  @usableFromInline let relay: CancellationLog
  /// The array as it is now, or `nil` once its parent is gone.
  @usableFromInline let read: @MainActor () -> TrackedArray<Element>?
  @usableFromInline var members: [Element.ID: [ScopeNode]] = [:]
  /// Members that joined since the last refresh.
  @usableFromInline var pending: [PendingMember] = []
  @usableFromInline var lastStamp: UInt64
  @usableFromInline var round: UInt64 = 0

  /// A member that joined since the last refresh.
  @usableFromInline
  struct PendingMember {
    @usableFromInline let id: Element.ID
    @usableFromInline let node: ScopeNode

    @inlinable
    init(id: Element.ID, node: ScopeNode) {
      self.id = id
      self.node = node
    }
  }

  @inlinable
  init(
    origin: SliceOrigin, relay: CancellationLog,
    read: @escaping @MainActor () -> TrackedArray<Element>?
  ) {
    self.origin = origin
    self.relay = relay
    self.read = read
    self.lastStamp = read()?.currentStamp ?? 0
    super.init()
  }

  /// The node the group's holder notifies; it keeps the group alive.
  @inlinable
  func makeNode() -> ScopeNode {
    let node = ScopeNode(
      capture: { [self] in captureMembers() },
      refresh: { [self] origin in refresh(origin) },
      sweep: { [self] in sweepMembers() })
    self.node = node
    return node
  }

  /// Adds the node of a scope of the element `id`, or of a scope under it.
  @inlinable
  func add(_ node: ScopeNode, id: Element.ID) {
    node.container = self
    if node.keepsOldSlice { listeningChanged(true) }
    pending.append(PendingMember(id: id, node: node))
  }

  /// Lets the members with `(old, new)` listeners keep their slice from before the update.
  ///
  /// - Complexity: O(members), only while one of them listens.
  @inlinable
  func captureMembers() {
    let table = members
    for nodes in table.values {
      for node in nodes where node.keepsOldSlice { node.capture() }
    }
    for member in pending where member.node.keepsOldSlice { member.node.capture() }
  }

  /// Notifies the members of the elements the update changed; returns false once none is left.
  ///
  /// - Complexity: O(journal capacity + changed elements' members); O(members) when more
  ///   elements changed than the journal holds, or after a member's token was cancelled.
  @inlinable
  func refresh(_ update: SliceOrigin) -> Bool {
    var table = takeMembers()
    defer { members = table }
    if relay.count.load(ordering: .relaxed) != 0 { sweep(&table) }
    guard update.mayChange(origin), let array = read(), array.currentStamp != lastStamp else {
      return !table.isEmpty || !pending.isEmpty
    }
    round &+= 1
    var emptied: [Element.ID] = []
    let known = array.visitChanges(since: lastStamp) { id in
      if let nodes = table[id] { refresh(nodes, of: id, update, emptied: &emptied) }
    }
    if !known {
      for (id, nodes) in table { refresh(nodes, of: id, update, emptied: &emptied) }
    }
    lastStamp = array.currentStamp
    if !emptied.isEmpty { remove(emptied, from: &table) }
    return !table.isEmpty || !pending.isEmpty
  }

  @inlinable
  func refresh(
    _ nodes: [ScopeNode], of id: Element.ID, _ update: SliceOrigin, emptied: inout [Element.ID]
  ) {
    for node in nodes where node.isActive && node.round != round {
      node.round = round
      if !node.refresh(update) {
        node.isActive = false
        emptied.append(id)
      }
    }
  }

  /// Sweeps every member after a cancellation; returns whether any is left.
  @inlinable
  func sweepMembers() -> Bool {
    var table = takeMembers()
    defer { members = table }
    if relay.count.load(ordering: .relaxed) != 0 { sweep(&table) }
    return !table.isEmpty || !pending.isEmpty
  }

  /// Takes the table out, with the members that joined since the last call filed in it.
  ///
  /// While it is out, `members` is empty: nothing reads it until it is put back, because only
  /// the group's node reads it, and the root never notifies inside a notification.
  @inlinable
  func takeMembers() -> [Element.ID: [ScopeNode]] {
    var table = members
    members = [:]
    while !pending.isEmpty {
      let joined = pending
      pending = []
      for member in joined { table[member.id, default: []].append(member.node) }
    }
    return table
  }

  @usableFromInline
  func sweep(_ table: inout [Element.ID: [ScopeNode]]) {
    relay.count.store(0, ordering: .relaxed)
    var emptied: [Element.ID] = []
    for (id, nodes) in table {
      for node in nodes where node.isActive && !node.sweep() {
        node.isActive = false
        emptied.append(id)
      }
    }
    remove(emptied, from: &table)
  }

  /// Drops the inactive members of `ids`, after the loops that found them.
  @usableFromInline
  func remove(_ ids: [Element.ID], from table: inout [Element.ID: [ScopeNode]]) {
    guard !ids.isEmpty else { return }
    // Kept until the writes are over: a dropped member's store may be released with its node,
    // and its deinitializers run after them.
    var dropped: [ScopeNode] = []
    defer { withExtendedLifetime(dropped) {} }
    for id in ids {
      guard let nodes = table[id] else { continue }
      let kept = nodes.filter(\.isActive)
      for node in nodes where !node.isActive {
        if node.keepsOldSlice { listeningChanged(false) }
        node.container = nil
        dropped.append(node)
      }
      table[id] = kept.isEmpty ? nil : kept
    }
  }
}
