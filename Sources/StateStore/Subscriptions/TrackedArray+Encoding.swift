extension TrackedArray {
  /// The positions of the elements changed since the array carried `stamp` and `layoutStamp`,
  /// in increasing order and each once, for an encoder that re-encodes only those.
  ///
  /// - Returns: `nil` when every element may have changed: elements were added, removed or
  ///   moved since (`layoutStamp` is not the array's), or `stamp` is no longer in the array's
  ///   history.
  /// - Complexity: O(journal capacity + c log c) for c changes noted since.
  package func changedPositions(since stamp: UInt64, layoutStamp: UInt64) -> [Int]? {
    guard layoutStamp == _layoutStamp else { return nil }
    var positions: [Int] = []
    var found = true
    let known = visitChanges(since: stamp) { id in
      if let position = index(id: id) { positions.append(position) } else { found = false }
    }
    guard known, found else { return nil }
    positions.sort()
    // An element changed twice is named once.
    var kept = 0
    for position in positions where kept == 0 || positions[kept - 1] != position {
      positions[kept] = position
      kept += 1
    }
    positions.removeLast(positions.count - kept)
    return positions
  }
}

/// An encoder that keeps what it encoded last and reads a ``TrackedArray``'s change notes, so
/// that it re-encodes only the elements that changed since: the action log's diff mode.
package protocol ChangeTrackingEncoder: Encoder {
  /// Encodes `array` in place of `array.encode(to:)`.
  func encodeTrackedArray<Element: Encodable>(_ array: TrackedArray<Element>) throws
}
