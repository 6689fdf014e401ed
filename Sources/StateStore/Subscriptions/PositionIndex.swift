/// Where each element of a `TrackedArray` stands, by identifier.
///
/// An open-addressing hash table (linear probing) whose slots hold only positions, four bytes
/// each: the identifier a slot stands for is read from the elements themselves, which a lookup
/// reads anyway. A `[ID: Int]` dictionary keeps keys and values in two further arrays, so on a
/// large array (100,000 elements) a lookup missed the cache twice at random places, and the
/// index took four times the memory. The table stays at most half full, so a lookup probes about
/// one slot and a miss about two.
///
/// Positions are stored plus one, so that an empty slot is zero. An array longer than
/// `UInt32.max - 1` elements (tens of gigabytes) cannot be indexed this way: it keeps no slots,
/// and its lookups scan the elements instead.
///
/// The slots are all it stores, so that it takes no more room in the state than the dictionary
/// did: the store's hot fields sit after the state, and a larger state moves them.
@usableFromInline
struct _PositionIndex: Sendable {
  /// Position plus one of an element, or 0.
  ///
  /// The count is zero or a power of two at least twice the count of elements. No slots with
  /// elements present means the array scans.
  @usableFromInline var _slots: [UInt32] = []

  @usableFromInline
  init() {}

  /// How many elements the slots index; for checks, as it reads every slot.
  ///
  /// - Complexity: O(slots).
  var indexedCount: Int { _slots.lazy.filter { $0 != 0 }.count }

  /// The largest count of elements the slots can hold.
  static var capacityLimit: Int { Int(UInt32.max) - 1 }

  /// The position of the element with `id` in `storage`, if present.
  ///
  /// - Complexity: O(1) on average.
  @inlinable @inline(__always)
  func position<Element: Identifiable>(of id: Element.ID, in storage: [Element]) -> Int? {
    if _slots.isEmpty { return storage.isEmpty ? nil : Self._scan(for: id, in: storage) }
    return position(of: id, hashValue: id.hashValue, in: storage)
  }

  /// The position of the element with `id`, whose `hashValue` the caller computed (to use it
  /// for another table as well), if present.
  ///
  /// - Complexity: O(1) on average.
  @inlinable @inline(__always)
  func position<Element: Identifiable>(
    of id: Element.ID, hashValue: Int, in storage: [Element]
  ) -> Int? {
    if _slots.isEmpty { return storage.isEmpty ? nil : Self._scan(for: id, in: storage) }
    let match = _LinearProbing.firstEntry(in: _slots, hash: hashValue) {
      storage[Int($0) &- 1].id == id
    }
    return match.map { Int($0.entry) &- 1 }
  }

  /// The position of the element with `id`, found by reading every element: only for an array
  /// longer than the slots can index.
  @usableFromInline @inline(never)
  static func _scan<Element: Identifiable>(for id: Element.ID, in storage: [Element]) -> Int? {
    storage.firstIndex { $0.id == id }
  }

  /// Indexes every element of `storage` anew.
  ///
  /// - Returns: `false` if two elements share an identifier (the index is then incomplete).
  /// - Complexity: O(n).
  @usableFromInline
  mutating func _rebuild<Element: Identifiable>(_ storage: [Element]) -> Bool {
    if storage.count > Self.capacityLimit {
      _slots = []
      return Set(storage.lazy.map(\.id)).count == storage.count
    }
    let size = _LinearProbing.slotCount(for: storage.count)
    if _slots.count == size {
      for slot in _slots.indices { _slots[slot] = 0 }
    } else {
      _slots = Array(repeating: 0, count: size)
    }
    for position in storage.indices {
      guard insertUnchecked(position, in: storage) else { return false }
    }
    return true
  }

  /// Indexes the element at `position`, whose identifier is not indexed yet; every other
  /// element must be indexed where it stands.
  ///
  /// - Complexity: O(1) on average; O(n) when the table grows (doubling, so amortised O(1)).
  @usableFromInline
  mutating func _insert<Element: Identifiable>(_ position: Int, in storage: [Element]) {
    if _slots.isEmpty || storage.count * 2 > _slots.count {
      _ = _rebuild(storage)
      return
    }
    _ = insertUnchecked(position, in: storage)
  }

  /// Forgets the element at `position`, which `storage` still holds there; the positions of
  /// the others are unchanged.
  ///
  /// - Complexity: O(1) on average.
  @usableFromInline
  mutating func _remove<Element: Identifiable>(_ position: Int, in storage: [Element]) {
    guard !_slots.isEmpty,
      let hole = _LinearProbing.slot(
        holding: UInt32(position + 1), hash: storage[position].id.hashValue, in: _slots)
    else { return }
    _LinearProbing.empty(hole, in: &_slots) { storage[Int($0) &- 1].id.hashValue }
  }

  /// Adds `delta` to every indexed position at or after `start`, after elements were inserted
  /// or removed before them.
  ///
  /// - Complexity: O(slots), with no hashing.
  @usableFromInline
  mutating func _shiftPositions(from start: Int, by delta: Int) {
    guard !_slots.isEmpty, start < Self.capacityLimit else { return }
    let first = UInt32(start + 1)
    let step = UInt32(truncatingIfNeeded: delta)
    for slot in _slots.indices where _slots[slot] >= first {
      // Wrapping addition of a negative delta's two's complement is the subtraction; every
      // shifted position stays in range because the elements did move by `delta`.
      _slots[slot] &+= step
    }
  }

  /// Puts `position` in the first free slot of its probe run.
  ///
  /// Returns `false`, storing nothing, if another element with the same identifier is indexed.
  /// The table has a free slot.
  private mutating func insertUnchecked<Element: Identifiable>(
    _ position: Int, in storage: [Element]
  ) -> Bool {
    let id = storage[position].id
    return _LinearProbing.insert(UInt32(position + 1), hash: id.hashValue, into: &_slots) {
      storage[Int($0) - 1].id == id
    }
  }

}
