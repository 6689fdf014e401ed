import Testing

@testable import StateStore

/// Random sequences of `TrackedArray` mutations, checked against a plain-array model.
///
/// Long seeded sequences of every mutation run against a plain array that does the same thing
/// the obvious way, and the change journal is checked against a naive before/after diff. Every
/// mutation also runs `_checkInvariants()` (in builds with `STATESTORE_INVARIANT_CHECKS=1`, as CI).
@Suite("TrackedArray against a plain-array model")
struct TrackedArrayModelTests {
  struct Item: Identifiable, Equatable, Sendable {
    var id: Int
    var value: Int
  }

  struct Failure: Error {}

  /// SplitMix64: a small generator whose sequence depends only on its seed.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// Identifiers come from a small range, so operations keep colliding with present ones; a
  /// single operation then notes at most this many ids, fewer than the journal holds.
  static let idRange = 0..<24

  /// The plain-array model of each operation, written the obvious way.
  struct Model {
    var items: [Item] = []

    func index(of id: Int) -> Int? { items.firstIndex { $0.id == id } }

    mutating func upsert(_ item: Item) -> Bool {
      if let index = index(of: item.id) {
        items[index] = item
        return false
      }
      items.append(item)
      return true
    }

    mutating func set(id: Int, to newValue: Item?) {
      guard let index = index(of: id) else {
        if let newValue { _ = upsert(newValue) }
        return
      }
      if let newValue, newValue.id == id {
        items[index] = newValue
      } else {
        items.remove(at: index)
        if let newValue { _ = upsert(newValue) }
      }
    }
  }

  @Test(
    "random operation sequences match the model, and the journal covers the naive diff",
    arguments: [1, 2, 3, 42, 2024, 9_001] as [UInt64])
  func matchesModel(seed: UInt64) {
    var random = SeededGenerator(state: seed)
    var array = TrackedArray<Item>()
    var model = Model()
    var windowStart = (stamp: array.currentStamp, items: model.items)
    for step in 0..<3_000 {
      let before = model.items
      let stamp = array.currentStamp
      let operation = apply(randomOperationTo: &array, model: &model, using: &random)
      let context = "seed \(seed), step \(step): \(operation)"
      #expect(array.elements == model.items, "\(context)")
      #expect(
        model.items.map { array.index(id: $0.id) } == model.items.indices.map { $0 },
        "\(context)")
      #expect(model.items.map { array[id: $0.id] } == model.items, "\(context)")
      if operation.hasPrefix("TrackedArray(") {
        #expect(reportedChanges(array, since: stamp) == nil, "a new array's history: \(context)")
        windowStart = (array.currentStamp, model.items)
        continue
      }
      guard let single = reportedChanges(array, since: stamp) else {
        Issue.record("one operation's changes fell out of the journal: \(context)")
        return
      }
      checkCovers(single, before: before, after: model.items, onlyKnown: true, context)
      if Int.random(in: 0..<8, using: &random) == 0 {
        if let window = reportedChanges(array, since: windowStart.stamp) {
          checkCovers(
            window, before: windowStart.items, after: model.items, onlyKnown: false,
            "window, " + context)
        }
        windowStart = (array.currentStamp, model.items)
      }
    }
  }

  @Test("a throwing predicate or comparison leaves the index consistent")
  func throwingClosures() {
    var array = TrackedArray((0..<10).map { Item(id: $0, value: 10 - $0) })
    var calls = 0
    #expect(throws: Failure.self) {
      try array.sort { lhs, rhs in
        calls += 1
        if calls == 12 { throw Failure() }
        return lhs.value < rhs.value
      }
    }
    calls = 0
    #expect(throws: Failure.self) {
      try array.removeAll { item in
        calls += 1
        if calls == 5 { throw Failure() }
        return item.id.isMultiple(of: 2)
      }
    }
    array._checkInvariants()
    #expect(Set(array.ids) == Set(0..<10))
    for (position, item) in array.enumerated() { #expect(array.index(id: item.id) == position) }
  }

  // MARK: - Operations

  private func randomItem(using random: inout SeededGenerator) -> Item {
    Item(
      id: Int.random(in: Self.idRange, using: &random), value: Int.random(in: 0..<5, using: &random)
    )
  }

  /// Applies one random operation to both, returning its name for failure messages.
  private func apply(
    randomOperationTo array: inout TrackedArray<Item>, model: inout Model,
    using random: inout SeededGenerator
  ) -> String {
    let item = randomItem(using: &random)
    let id = Int.random(in: Self.idRange, using: &random)
    let position = Int.random(in: -2...(model.items.count + 2), using: &random)
    switch Int.random(in: 0..<16, using: &random) {
    case 0:
      let appended = array.append(item)
      let expected = model.index(of: item.id) == nil
      if expected { model.items.append(item) }
      #expect(appended == expected)
      return "append(\(item))"
    case 1:
      let appended = array.upsert(item)
      #expect(appended == model.upsert(item))
      return "upsert(\(item))"
    case 2:
      let inserted = array.insert(item, at: position)
      let expected = model.index(of: item.id) == nil
      if expected { model.items.insert(item, at: min(max(position, 0), model.items.count)) }
      #expect(inserted == expected)
      return "insert(\(item), at: \(position))"
    case 3:
      let removed = array.remove(id: id)
      #expect(removed == model.index(of: id).map { model.items.remove(at: $0) })
      return "remove(id: \(id))"
    case 4:
      guard !model.items.isEmpty else { return "remove(at:) on empty" }
      let index = Int.random(in: model.items.indices, using: &random)
      #expect(array.remove(at: index) == model.items.remove(at: index))
      return "remove(at: \(index))"
    case 5:
      let parity = Int.random(in: 0..<2, using: &random)
      array.removeAll { $0.value % 2 == parity }
      model.items.removeAll { $0.value % 2 == parity }
      return "removeAll(where: value % 2 == \(parity))"
    case 6:
      guard Int.random(in: 0..<10, using: &random) == 0 else { return "skipped removeAll()" }
      array.removeAll()
      model.items.removeAll()
      return "removeAll()"
    case 7:
      array[id: id] = nil
      model.set(id: id, to: nil)
      return "[id: \(id)] = nil"
    case 8:
      let value = Item(id: id, value: item.value)
      array[id: id] = value
      model.set(id: id, to: value)
      return "[id: \(id)] = \(value)"
    case 9:
      array[id: id] = item
      model.set(id: id, to: item)
      return "[id: \(id)] = \(item) (maybe another id)"
    case 10:
      array[id: id]?.value += 1
      if let index = model.index(of: id) { model.items[index].value += 1 }
      return "[id: \(id)]?.value += 1"
    case 11:
      array[id: id]?.id = item.id
      if let index = model.index(of: id) {
        var changed = model.items[index]
        changed.id = item.id
        model.set(id: id, to: changed)
      }
      return "[id: \(id)]?.id = \(item.id)"
    case 12:
      guard !model.items.isEmpty else { return "modify(at:) on empty" }
      let index = Int.random(in: model.items.indices, using: &random)
      let changesID = Bool.random(using: &random)
      let body: (inout Item) -> Void = { element in
        if changesID { element.id = item.id } else { element.value = item.value }
      }
      array.modify(at: index, body)
      var changed = model.items[index]
      body(&changed)
      model.set(id: model.items[index].id, to: changed)
      return "modify(at: \(index)) changing \(changesID ? "id" : "value")"
    case 13:
      let descending = Bool.random(using: &random)
      let order: (Item, Item) -> Bool = { lhs, rhs in
        let key = { (item: Item) in (descending ? -item.value : item.value, item.id) }
        return key(lhs) < key(rhs)
      }
      array.sort(by: order)
      model.items.sort(by: order)
      return "sort(descending: \(descending))"
    case 14:
      array.move(id: id, to: position)
      if let from = model.index(of: id) {
        let moved = model.items.remove(at: from)
        model.items.insert(moved, at: min(max(position, 0), model.items.count))
      }
      return "move(id: \(id), to: \(position))"
    default:
      let rebuilt = TrackedArray(model.items + [item])
      _ = model.upsert(item)
      array = rebuilt
      return "TrackedArray(elements + [\(item)])"
    }
  }

  // MARK: - Changes

  private func reportedChanges(_ array: TrackedArray<Item>, since stamp: UInt64) -> Set<Int>? {
    var ids = Set<Int>()
    return array.visitChanges(since: stamp) { ids.insert($0) } ? ids : nil
  }

  /// Checks that every id whose element was added, removed or changed is reported.
  ///
  /// For one operation, only ids present before or after may be reported; over a window, an id
  /// added and removed again within it is reported too.
  private func checkCovers(
    _ reported: Set<Int>, before: [Item], after: [Item], onlyKnown: Bool, _ context: String
  ) {
    let old = Dictionary(uniqueKeysWithValues: before.map { ($0.id, $0) })
    let new = Dictionary(uniqueKeysWithValues: after.map { ($0.id, $0) })
    let changed = Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }
    #expect(
      changed.isSubset(of: reported),
      "unreported changes \(changed.subtracting(reported)): \(context)")
    guard onlyKnown else { return }
    let known = Set(old.keys).union(new.keys)
    #expect(reported.isSubset(of: known), "spurious ids \(reported.subtracting(known)): \(context)")
  }
}
