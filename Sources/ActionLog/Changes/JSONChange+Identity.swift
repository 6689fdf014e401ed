extension JSONChange {
  /// How many moves an identified array's diff writes at most: past this, a reordering (a
  /// sort of a long list) is written as one `replace` of the whole array, which costs less to
  /// write and to read.
  static let maximumMoves = 1_000

  /// Appends the changes that turn the identified array `old` into `new`, found at `path`, by
  /// identity (see ``JSONChange``); `middle` is how many elements both share, equal, at their
  /// start and at their end.
  ///
  /// The changes come in the order they apply: the changes inside the elements both arrays
  /// have (in `new`'s order), the removals (from the highest index down), the moves of the
  /// elements outside a longest run already in order (each after the element it follows in
  /// `new`), then the additions (from the lowest index up).
  ///
  /// - Returns: `false`, having appended nothing, when either array does not name every element
  ///   by a distinct identifier, or is the whole value (an element step follows its array's
  ///   name in a path).
  /// - Complexity: O(n log n) for n elements, plus O(n) per move.
  static func collectIdentified(
    _ old: [JSONValue], _ new: [JSONValue], middle: (prefix: Int, suffix: Int),
    path: inout [PathStep], into changes: inout [JSONChange]
  ) -> Bool {
    guard !path.isEmpty, let oldIDs = IdentifiedElements(old), let newIDs = IdentifiedElements(new)
    else {
      return false
    }
    let oldRange = middle.prefix..<old.count - middle.suffix
    let newRange = middle.prefix..<new.count - middle.suffix
    // The elements both have, in `new`'s order, with their index in each.
    var common: [(new: Int, old: Int)] = []
    for index in newRange {
      if let position = oldIDs.positions[newIDs.keys[index]], oldRange.contains(position) {
        common.append((index, position))
      }
    }
    let staying = longestIncreasingRun(common.map(\.old))
    let start = changes.count
    if common.count - staying.count > maximumMoves {
      changes.append(JSONChange(.replace, path, old: .array(old), value: .array(new)))
      return true
    }
    for pair in common {
      path.append(.id(newIDs.ids[pair.new]))
      collect(old[pair.old], new[pair.new], path: &path, into: &changes, identifies: true)
      path.removeLast()
    }
    // The array as the changes leave it, by keys, to give each change the positions it sees.
    var current = oldIDs.keys
    for index in oldRange.reversed() where newIDs.positions[oldIDs.keys[index]] == nil {
      changes.append(
        JSONChange(
          .remove, path + [.id(oldIDs.ids[index])], old: old[index], value: nil, index: index))
      current.remove(at: index)
    }
    for (position, pair) in common.enumerated() where !staying.contains(position) {
      let key = newIDs.keys[pair.new]
      guard let from = current.firstIndex(of: key) else { return fallBack(old, new, path) }
      current.remove(at: from)
      var to = middle.prefix
      if position > 0 {
        let before = newIDs.keys[common[position - 1].new]
        guard let place = current.firstIndex(of: before) else { return fallBack(old, new, path) }
        to = place + 1
      }
      current.insert(key, at: to)
      changes.append(
        JSONChange(
          .move, path + [.id(newIDs.ids[pair.new])], old: nil, value: nil, index: to, from: from))
    }
    for index in newRange where oldIDs.positions[newIDs.keys[index]] == nil {
      changes.append(
        JSONChange(
          .add, path + [.id(newIDs.ids[index])], old: nil, value: new[index], index: index))
      current.insert(newIDs.keys[index], at: index)
    }
    // The positions above follow from the arrays' shapes; a check that they lead to `new`
    // keeps a mistake from ever reaching a log.
    return current == newIDs.keys || fallBack(old, new, path)

    func fallBack(_ old: [JSONValue], _ new: [JSONValue], _ path: [PathStep]) -> Bool {
      changes.removeSubrange(start...)
      changes.append(JSONChange(.replace, path, old: .array(old), value: .array(new)))
      return true
    }
  }

  /// The positions in `sequence` of a longest strictly increasing subsequence.
  ///
  /// - Complexity: O(n log n).
  static func longestIncreasingRun(_ sequence: [Int]) -> Set<Int> {
    // `tails[k]`: the position of the smallest last value of a run of length k + 1.
    var tails: [Int] = []
    var previous = [Int](repeating: -1, count: sequence.count)
    for (position, value) in sequence.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let mid = (low + high) / 2
        if sequence[tails[mid]] < value { low = mid + 1 } else { high = mid }
      }
      if low > 0 { previous[position] = tails[low - 1] }
      if low == tails.count { tails.append(position) } else { tails[low] = position }
    }
    var run: Set<Int> = []
    var position = tails.last ?? -1
    while position >= 0 {
      run.insert(position)
      position = previous[position]
    }
    return run
  }
}

/// The identifiers of an array's elements, when each element carries one and no two the same.
package struct IdentifiedElements {
  /// Each element's identifier.
  package let ids: [JSONValue]
  /// Each identifier as compact JSON text, which tells strings from numbers.
  let keys: [String]
  /// The index of each key.
  let positions: [String: Int]

  /// The identifiers of `elements`, or `nil` when one has none or two have the same.
  ///
  /// - Complexity: O(elements).
  package init?(_ elements: [JSONValue]) {
    var ids: [JSONValue] = []
    var keys: [String] = []
    var positions: [String: Int] = [:]
    ids.reserveCapacity(elements.count)
    keys.reserveCapacity(elements.count)
    positions.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      guard let id = element.elementIdentifier else { return nil }
      let key = id.text()
      guard positions.updateValue(index, forKey: key) == nil else { return nil }
      ids.append(id)
      keys.append(key)
    }
    self.ids = ids
    self.keys = keys
    self.positions = positions
  }
}
