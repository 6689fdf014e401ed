/// An element group's buckets, found by identifier through the same hash as the array's
/// ``PositionIndex``.
///
/// A subscription and a delivery look an identifier up twice, in the array (to read the
/// element) and here (to find its subscribers). A `Dictionary` hashes the identifier again with
/// its own seed; this table takes the `hashValue` the array's lookup computed, so each look-up
/// by identifier hashes it once (about a hundred instructions for an `Int`). Like
/// ``PositionIndex``, it is open addressing with linear probing over four-byte slots that hold
/// an entry's place plus one; the buckets themselves are dense, in the order they were made,
/// and carry their identifier and its hash.
///
/// No method here runs code of the application's: an identifier's `hash(into:)` and `==` are
/// user code, so each bucket keeps the hash its identifier had when it was filed (growing and
/// removing never hash again), and a look-up by identifier is split in two. ``candidate(hash:after:)``
/// finds the buckets whose stored hash matches, and the caller compares identifiers itself, with
/// no access to the table open (see `ElementGroup.place(of:hashValue:)`), then checks
/// ``changes`` to learn whether that comparison changed the table.
@usableFromInline
struct ElementBuckets<Element: Identifiable & Equatable & Sendable>: Sendable
where Element.ID: Sendable {
  /// Place plus one of a bucket in ``entries``, or 0.
  ///
  /// The count is zero or a power of two at least twice the count of entries.
  @usableFromInline var slots: [UInt32] = []
  /// The buckets, densely; removing one moves the last into its place.
  @usableFromInline var entries: [ElementBucket<Element>] = []
  /// How many times buckets were added or removed: a look-up that ran user code between two
  /// steps starts again if this moved.
  @usableFromInline var changes: UInt = 0

  @inlinable
  init() {}

  @inlinable
  var isEmpty: Bool { entries.isEmpty }

  /// The 32 bits of a `hashValue` that the table keeps and probes from.
  @inlinable
  static func hash(of hashValue: Int) -> UInt32 {
    UInt32(truncatingIfNeeded: hashValue)
  }

  /// The next bucket whose identifier has `hash`, in the probe run of `hash`, after the slot
  /// `after` (from the run's start when `nil`): its place in ``entries``, and the slot to
  /// continue from; `nil` at the end of the run.
  ///
  /// It compares stored hashes alone; whether the bucket's identifier is the one looked for is
  /// the caller's to ask, outside any access to the table.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  func candidate(hash: UInt32, after: Int?) -> (place: Int, slot: Int)? {
    guard !slots.isEmpty else { return nil }
    let mask = slots.count &- 1
    var slot = after.map { ($0 &+ 1) & mask } ?? Int(hash) & mask
    // Ends: at most half the slots are taken, so the run reaches an empty one.
    while true {
      let entry = slots[slot]
      if entry == 0 { return nil }
      let place = Int(entry) &- 1
      if entries[place].hash == hash { return (place, slot) }
      slot = (slot &+ 1) & mask
    }
  }

  /// Adds `bucket`, whose identifier has no bucket yet.
  ///
  /// - Complexity: O(1) on average; O(n) when the slots grow (doubling, so amortised O(1)).
  @inlinable
  mutating func append(_ bucket: ElementBucket<Element>) {
    changes &+= 1
    entries.append(bucket)
    // More than 2³² - 2 buckets would need more memory than any machine has (each holds a
    // subscriber and its token); the check keeps the conversion below safe regardless.
    guard entries.count < Int(UInt32.max) else { return }
    if entries.count * 2 > slots.count {
      rebuildSlots()
      return
    }
    let mask = slots.count &- 1
    var slot = Int(bucket.hash) & mask
    while slots[slot] != 0 { slot = (slot &+ 1) & mask }
    slots[slot] = UInt32(entries.count)
  }

  /// Removes the bucket at `place` and returns it; the last bucket takes its place.
  ///
  /// The bucket is moved out, not destroyed: the caller drops it (and the element it holds,
  /// whose deinitializer is user code) after its access to the table is over.
  ///
  /// - Complexity: O(1) on average.
  @usableFromInline
  mutating func remove(at place: Int) -> ElementBucket<Element> {
    changes &+= 1
    let last = entries.count - 1
    if !slots.isEmpty {
      let mask = slots.count &- 1
      clearSlot(holding: place, mask: mask)
      if place != last, let moved = slot(holding: last, mask: mask) {
        slots[moved] = UInt32(place + 1)
      }
    }
    entries.swapAt(place, last)
    return entries.removeLast()
  }

  /// Removes every bucket and returns them, moved out for the caller to drop after its access.
  @usableFromInline
  mutating func removeAll() -> [ElementBucket<Element>] {
    changes &+= 1
    slots = []
    var removed: [ElementBucket<Element>] = []
    swap(&removed, &entries)
    return removed
  }

  /// Indexes every entry anew in a table twice their count (at least eight slots).
  @usableFromInline
  mutating func rebuildSlots() {
    var size = 8
    while size < entries.count * 2 { size *= 2 }
    slots = Array(repeating: 0, count: size)
    let mask = size &- 1
    for place in entries.indices {
      var slot = Int(entries[place].hash) & mask
      while slots[slot] != 0 { slot = (slot &+ 1) & mask }
      slots[slot] = UInt32(place + 1)
    }
  }

  /// The slot that holds `place`.
  private func slot(holding place: Int, mask: Int) -> Int? {
    let target = UInt32(place + 1)
    var slot = Int(entries[place].hash) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { return nil }
      if entry == target { return slot }
      slot = (slot &+ 1) & mask
    }
  }

  /// Empties the slot that holds `place`, moving up the later entries of its probe run that
  /// a lookup could no longer reach (backward-shift deletion, as in ``PositionIndex``).
  private mutating func clearSlot(holding place: Int, mask: Int) {
    guard var hole = slot(holding: place, mask: mask) else { return }
    var next = hole
    while true {
      next = (next &+ 1) & mask
      let entry = slots[next]
      if entry == 0 { break }
      let home = Int(entries[Int(entry) &- 1].hash) & mask
      if !PositionIndex.entry(at: next, homed: home, staysPast: hole) {
        slots[hole] = entry
        hole = next
      }
    }
    slots[hole] = 0
  }
}
