import Testing

@testable import StateStore

/// The position index of `TrackedArray` on arrays large enough to grow its table several times
/// and to make probe runs collide: every element is found where it stands, and nothing else is.
@Suite("TrackedArray's position index")
struct PositionIndexTests {
  struct Item: Identifiable, Equatable, Sendable {
    var id: Int
  }

  /// Checks every present identifier and a range of absent ones against the elements.
  func expectExact(_ array: TrackedArray<Item>, absent: some Sequence<Int>) {
    for (position, item) in array.enumerated() where array.index(id: item.id) != position {
      Issue.record(
        "\(item.id) is indexed at \(String(describing: array.index(id: item.id))), not \(position)")
    }
    for id in absent where array.contains(id: id) {
      Issue.record("\(id) was removed but is still found")
    }
    #expect(array._positions.indexedCount == array.count)
  }

  @Test("growth, removals from the middle, insertions and moves keep every position exact")
  func staysExact() {
    var array = TrackedArray<Item>()
    for id in 0..<5_000 { array.append(Item(id: id)) }
    expectExact(array, absent: 5_000..<5_100)

    var removed: [Int] = []
    for id in stride(from: 0, to: 5_000, by: 3) {
      let item = array.remove(id: id)
      #expect(item == Item(id: id))
      removed.append(id)
    }
    expectExact(array, absent: removed)

    for id in 10_000..<10_200 {
      let inserted = array.insert(Item(id: id), at: id % 97)
      #expect(inserted)
    }
    for id in stride(from: 1, to: 400, by: 7) { array.move(id: id, to: array.count - id) }
    expectExact(array, absent: removed)

    array.sort { $0.id > $1.id }
    expectExact(array, absent: removed)
    #expect(array.elements.map(\.id) == array.elements.map(\.id).sorted(by: >))
  }

  @Test("an array built with repeated identifiers keeps one element per identifier, indexed")
  func deduplicates() {
    let array = TrackedArray((0..<3_000).map { Item(id: $0 % 1_000) })
    #expect(array.count == 1_000)
    expectExact(array, absent: 1_000..<1_050)
  }

  @Test("removing the last element leaves the others where they were")
  func removesLast() {
    var array = TrackedArray((0..<100).map(Item.init))
    while let last = array.elements.last {
      array.remove(at: array.count - 1)
      expectExact(array, absent: [last.id])
    }
    #expect(array.isEmpty)
    #expect(array._positions.indexedCount == 0)
  }
}
