/// An element group's buckets, found by identifier through the same hash as the array's
/// ``_PositionIndex``.
///
/// A subscription and a delivery look an identifier up twice, in the array (to read the
/// element) and here (to find its subscribers). A `Dictionary` hashes the identifier again with
/// its own seed; this table takes the `hashValue` the array's lookup computed, so each look-up
/// by identifier hashes it once (about a hundred instructions for an `Int`). Like
/// ``_PositionIndex``, it is open addressing with linear probing over four-byte slots that hold
/// an entry's place plus one; the buckets themselves are dense, in the order they were made,
/// and carry their identifier and its hash.
///
/// No method here runs code of the application's: an identifier's `hash(into:)` and `==` are
/// user code, so each bucket keeps the hash its identifier had when it was filed (growing and
/// removing never hash again), and a look-up by identifier is split in two. ``candidate(hash:after:)``
/// finds the buckets whose stored hash matches, and the caller compares identifiers itself, with
/// no access to the table open (see `ElementGroup.place(of:hashValue:)`), then checks
/// ``_changes`` to learn whether that comparison changed the table.
@usableFromInline
struct _ElementBuckets<Element: Identifiable & Equatable & Sendable>: Sendable
where Element.ID: Sendable {
  /// Place plus one of a bucket in ``_entries``, or 0.
  ///
  /// The count is zero or a power of two at least twice the count of entries.
  @usableFromInline var _slots: [UInt32] = []
  /// The buckets, densely; removing one moves the last into its place.
  @usableFromInline var _entries: [_ElementBucket<Element>] = []
  /// How many times buckets were added or removed: a look-up that ran user code between two
  /// steps starts again if this moved.
  @usableFromInline var _changes: UInt = 0

  @inlinable
  init() {}

  @inlinable
  var isEmpty: Bool { _entries.isEmpty }

  /// The 32 bits of a `hashValue` that the table keeps and probes from.
  @inlinable
  static func hash(of hashValue: Int) -> UInt32 {
    UInt32(truncatingIfNeeded: hashValue)
  }

  /// The next bucket whose identifier has `hash`, in the probe run of `hash`, after the slot
  /// `after` (from the run's start when `nil`): its place in ``_entries``, and the slot to
  /// continue from; `nil` at the end of the run.
  ///
  /// It compares stored hashes alone; whether the bucket's identifier is the one looked for is
  /// the caller's to ask, outside any access to the table.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  func candidate(hash: UInt32, after: Int?) -> (place: Int, slot: Int)? {
    guard !_slots.isEmpty else { return nil }
    let start = after.map { $0 &+ 1 } ?? Int(hash)
    let match = _LinearProbing.firstEntry(in: _slots, hash: start) {
      _entries[Int($0) &- 1].hash == hash
    }
    return match.map { (Int($0.entry) &- 1, $0.slot) }
  }

  /// Adds `bucket`, whose identifier has no bucket yet.
  ///
  /// - Complexity: O(1) on average; O(n) when the slots grow (doubling, so amortised O(1)).
  @inlinable
  mutating func append(_ bucket: _ElementBucket<Element>) {
    _changes &+= 1
    _entries.append(bucket)
    // More than 2³² - 2 buckets would need more memory than any machine has (each holds a
    // subscriber and its token); the check keeps the conversion below safe regardless.
    guard _entries.count < Int(UInt32.max) else { return }
    if _entries.count * 2 > _slots.count {
      _rebuildSlots()
      return
    }
    _ = _LinearProbing.insert(UInt32(_entries.count), hash: Int(bucket.hash), into: &_slots)
  }

  /// Removes the bucket at `place` and returns it; the last bucket takes its place.
  ///
  /// The bucket is moved out, not destroyed: the caller drops it (and the element it holds,
  /// whose deinitializer is user code) after its access to the table is over.
  ///
  /// - Complexity: O(1) on average.
  @usableFromInline
  mutating func _remove(at place: Int) -> _ElementBucket<Element> {
    _changes &+= 1
    let last = _entries.count - 1
    if !_slots.isEmpty {
      if let hole = slot(holding: place) {
        _LinearProbing.empty(hole, in: &_slots) { Int(_entries[Int($0) &- 1].hash) }
      }
      if place != last, let moved = slot(holding: last) {
        _slots[moved] = UInt32(place + 1)
      }
    }
    _entries.swapAt(place, last)
    return _entries.removeLast()
  }

  /// Removes every bucket and returns them, moved out for the caller to drop after its access.
  @usableFromInline
  mutating func _removeAll() -> [_ElementBucket<Element>] {
    _changes &+= 1
    _slots = []
    var removed: [_ElementBucket<Element>] = []
    swap(&removed, &_entries)
    return removed
  }

  /// Indexes every entry anew in a table twice their count (at least eight slots).
  @usableFromInline
  mutating func _rebuildSlots() {
    _slots = Array(repeating: 0, count: _LinearProbing.slotCount(for: _entries.count))
    for place in _entries.indices {
      _ = _LinearProbing.insert(UInt32(place + 1), hash: Int(_entries[place].hash), into: &_slots)
    }
  }

  /// The slot that holds the bucket at `place`.
  private func slot(holding place: Int) -> Int? {
    _LinearProbing.slot(holding: UInt32(place + 1), hash: Int(_entries[place].hash), in: _slots)
  }
}
