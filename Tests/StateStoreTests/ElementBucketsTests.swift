import Testing

@testable import StateStore

/// An element group's bucket table, on enough identifiers to grow it several times and to make
/// probe runs collide: every bucket is found at its place, and a removed one is not.
@Suite("Element groups' bucket table")
struct ElementBucketsTests {
  struct Item: Identifiable, Equatable, Sendable {
    var id: Int
  }

  func bucket(_ id: Int) -> _ElementBucket<Item> {
    _ElementBucket(
      id: id, hashValue: id.hashValue, last: Item(id: id), subscriber: _SubscriberIndex(id))
  }

  /// Checks that each present identifier finds its own bucket and each absent one finds none.
  func expectExact(_ buckets: _ElementBuckets<Item>, present: Set<Int>, absent: some Sequence<Int>)
  {
    #expect(Set(buckets._entries.map(\.id)) == present)
    #expect(buckets._entries.count == present.count)
    for id in present {
      let place = buckets.place(of: id, hashValue: id.hashValue)
      #expect(place.map { buckets._entries[$0].id } == id, "\(id) is not found at its place")
      #expect(place.map { buckets._entries[$0]._first } == _SubscriberIndex(id))
    }
    for id in absent where buckets.place(of: id, hashValue: id.hashValue) != nil {
      Issue.record("\(id) has no bucket but one was found")
    }
  }

  @Test("a bucket keeps its identifier's hash: growing and removing never hash again")
  func keepsHashes() {
    var buckets = _ElementBuckets<Item>()
    for id in 0..<100 { buckets.append(bucket(id)) }
    #expect(buckets._changes == 100)
    #expect(
      buckets._entries.allSatisfy { $0.hash == _ElementBuckets<Item>.hash(of: $0.id.hashValue) })
    _ = buckets._remove(at: 3)
    let removed = buckets._removeAll()
    #expect(removed.count == 99)
    #expect(buckets.isEmpty && buckets.place(of: 5, hashValue: 5.hashValue) == nil)
    #expect(buckets._changes == 102, "every addition and removal moves the count of changes")
  }

  @Test("growth, and removals anywhere (the last bucket moving into the hole) keep every place")
  func staysExact() {
    var buckets = _ElementBuckets<Item>()
    #expect(buckets.isEmpty)
    #expect(buckets.place(of: 1, hashValue: 1.hashValue) == nil)
    var present = Set<Int>()
    for id in 0..<3_000 {
      buckets.append(bucket(id))
      present.insert(id)
    }
    expectExact(buckets, present: present, absent: 3_000..<3_100)

    // Removed from the last place down, as the sweep does, and from anywhere one at a time.
    let sweep = buckets._entries.indices.filter { $0 % 3 == 0 }
    for place in sweep.reversed() {
      let removed = buckets._remove(at: place)
      present.remove(removed.id)
    }
    expectExact(buckets, present: present, absent: (0..<3_000).filter { !present.contains($0) })
    while buckets._entries.count > 500 {
      let place = buckets.place(
        of: buckets._entries[7].id, hashValue: buckets._entries[7].id.hashValue)
      let removed = buckets._remove(at: place ?? 0)
      present.remove(removed.id)
    }
    for id in 5_000..<5_300 {
      buckets.append(bucket(id))
      present.insert(id)
    }
    expectExact(buckets, present: present, absent: (0..<3_000).filter { !present.contains($0) })

    while !buckets.isEmpty { _ = buckets._remove(at: buckets._entries.count / 2) }
    expectExact(buckets, present: [], absent: 0..<5_300)
  }
}

extension _ElementBuckets {
  /// The place of `id`'s bucket, walking ``candidate(hash:after:)`` as the element group does,
  /// on a table no user code can reach.
  func place(of id: Element.ID, hashValue: Int) -> Int? {
    var after: Int?
    while case (let place, let slot)? = candidate(hash: Self.hash(of: hashValue), after: after) {
      if _entries[place].id == id { return place }
      after = slot
    }
    return nil
  }
}
