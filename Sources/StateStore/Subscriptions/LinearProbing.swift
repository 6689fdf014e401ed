/// The open-addressing table that ``_PositionIndex`` and `ElementBuckets` both keep: one place for
/// its probe loop, its insertion and its deletion.
///
/// A table is an array of `UInt32` slots whose count is a power of two; 0 is an empty slot, and
/// any other value is an entry (a position plus one) that the owner interprets. An entry lives
/// in the probe run that starts at its home slot (its hash masked by the count) and goes on
/// slot by slot, wrapping, to the first empty slot. The owners keep the table at most half
/// full, so every run ends, and a run is two slots long on average.
@usableFromInline
enum _LinearProbing {
  /// The slot count for `count` entries: the smallest power of two, at least 8, that keeps the
  /// table at most half full.
  @inlinable
  static func slotCount(for count: Int) -> Int {
    var size = 8
    while size < count * 2 { size *= 2 }
    return size
  }

  /// The first entry of the run from `hash`'s home slot that `matches`, with its slot; `nil` at
  /// the run's end.
  ///
  /// - Complexity: O(run length); O(1) on average in a table at most half full.
  @inlinable @inline(__always)
  static func firstEntry(
    in slots: [UInt32], hash: Int, where matches: (UInt32) -> Bool
  ) -> (entry: UInt32, slot: Int)? {
    let mask = slots.count &- 1
    var slot = hash & mask
    // Ends: at most half the slots are taken, so the run reaches an empty one.
    while true {
      let entry = slots[slot]
      if entry == 0 { return nil }
      if matches(entry) { return (entry, slot) }
      slot = (slot &+ 1) & mask
    }
  }

  /// Puts `entry` in the first empty slot of the run from `hash`'s home slot; `false`, leaving
  /// the table as it was, if an entry on the way `isDuplicate`.
  ///
  /// - Complexity: O(run length).
  @inlinable
  static func insert(
    _ entry: UInt32, hash: Int, into slots: inout [UInt32],
    rejecting isDuplicate: (UInt32) -> Bool = { _ in false }
  ) -> Bool {
    let mask = slots.count &- 1
    var slot = hash & mask
    while slots[slot] != 0 {
      if isDuplicate(slots[slot]) { return false }
      slot = (slot &+ 1) & mask
    }
    slots[slot] = entry
    return true
  }

  /// The slot that holds `entry`, in the run from `hash`'s home slot.
  ///
  /// - Complexity: O(run length).
  @inlinable
  static func slot(holding entry: UInt32, hash: Int, in slots: [UInt32]) -> Int? {
    firstEntry(in: slots, hash: hash) { $0 == entry }?.slot
  }

  /// Empties `hole`, moving up every later entry of its run that a look-up would otherwise no
  /// longer reach (backward-shift deletion); `hash(entry)` gives an entry's hash.
  ///
  /// - Complexity: O(run length).
  @inlinable
  static func empty(_ hole: Int, in slots: inout [UInt32], hash: (UInt32) -> Int) {
    let mask = slots.count &- 1
    var hole = hole
    var next = hole
    while true {
      next = (next &+ 1) & mask
      let entry = slots[next]
      if entry == 0 { break }
      let home = hash(entry) & mask
      // The entry may stay where it is if its home lies cyclically in (hole, next].
      let staysPast = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
      if !staysPast {
        slots[hole] = entry
        hole = next
      }
    }
    slots[hole] = 0
  }
}
