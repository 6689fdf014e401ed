extension TrackedArray {
  /// Checks that the four structures a `TrackedArray` keeps in step agree: the elements, the
  /// identifier index, the change journal and the stamps.
  ///
  /// Every mutation calls it when the package is built with `STATESTORE_INVARIANT_CHECKS=1` in
  /// the environment (our CI does), as swift-collections' `_checkInvariants()` runs under its
  /// own flag; other builds, the debug builds of applications included, never call it, so the
  /// documented O(1) holds there. A broken invariant is a bug
  /// in this file, never something a caller can cause, so it stops the process at the mutation
  /// that broke it.
  ///
  /// - Complexity: O(n + journal capacity).
  @usableFromInline
  func _checkInvariants() {
    // An array too long for the index keeps no slots and scans; every other one indexes all.
    precondition(
      (_positions._slots.isEmpty && _storage.count > _PositionIndex.capacityLimit)
        || _positions.indexedCount == _storage.count,
      "TrackedArray: \(_positions.indexedCount) indexed identifiers for \(_storage.count) elements")
    for (index, element) in _storage.enumerated() {
      precondition(
        self.index(id: element.id) == index,
        "TrackedArray: the element at \(index) is indexed at \(String(describing: self.index(id: element.id)))"
      )
    }
    precondition(
      _journal.count <= Self._journalCapacity, "TrackedArray: the journal outgrew its capacity")
    precondition(
      _journalStart == 0
        || (_journal.count == Self._journalCapacity && _journalStart < _journal.count),
      "TrackedArray: the journal's start \(_journalStart) is outside its ring")
    // Stamps only grow: the base, then each journal entry oldest first, ends at the current stamp.
    var previous = _journalBase
    for offset in 0..<_journal.count {
      let entry = _journal[(_journalStart + offset) % _journal.count]
      precondition(entry.stamp > previous, "TrackedArray: journal stamps out of order")
      previous = entry.stamp
    }
    precondition(previous == _stamp, "TrackedArray: the current stamp is not the latest change's")
  }
}
