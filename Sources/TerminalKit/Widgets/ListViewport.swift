/// Which row of a list is selected and which rows are on screen.
///
/// Selection is kept by identifier, not by position, so that a todo added, removed or toggled
/// elsewhere does not silently move the highlight to a different todo.
package struct ListViewport<ID: Hashable & Sendable>: Equatable, Sendable {
  /// The selected row's identifier, or `nil` when the list is empty.
  package private(set) var selection: ID?
  /// The index of the first row on screen.
  package private(set) var offset = 0

  /// Creates a viewport with nothing selected.
  package init() {}

  /// Keeps the selection valid for `ids`: an unknown selection moves to the row that now sits at
  /// its old position (or the last row), an empty list clears it.
  ///
  /// - Parameter find: Where an identifier is among `ids`, counted from the start, or `nil`
  ///   when it is not there; a search from the start when not given.
  /// - Complexity: O(n) in the number of rows, or what `find` costs.
  package mutating func update(
    ids: some RandomAccessCollection<ID>, previousIndex: Int?, find: ((ID) -> Int?)? = nil
  ) {
    guard !ids.isEmpty else {
      selection = nil
      return
    }
    if Self.position(of: selection, in: ids, find: find) != nil { return }
    let index = min(max(previousIndex ?? 0, 0), ids.count - 1)
    selection = ids[ids.index(ids.startIndex, offsetBy: index)]
  }

  /// Moves the selection by `delta` rows, stopping at either end.
  ///
  /// - Parameter find: As in ``update(ids:previousIndex:find:)``.
  /// - Complexity: O(n) in the number of rows, or what `find` costs.
  package mutating func move(
    by delta: Int, in ids: some RandomAccessCollection<ID>, find: ((ID) -> Int?)? = nil
  ) {
    guard !ids.isEmpty else { return }
    let current = Self.position(of: selection, in: ids, find: find) ?? 0
    let index = min(max(current + delta, 0), ids.count - 1)
    selection = ids[ids.index(ids.startIndex, offsetBy: index)]
  }

  /// Selects the row with `id`.
  package mutating func select(_ id: ID) { selection = id }

  /// Scrolls so the selected row is among the `height` rows shown; returns the visible range.
  ///
  /// - Parameter find: As in ``update(ids:previousIndex:find:)``.
  /// - Complexity: O(n) in the number of rows, or what `find` costs.
  package mutating func visibleRange(
    in ids: some RandomAccessCollection<ID>, height: Int, find: ((ID) -> Int?)? = nil
  ) -> Range<Int> {
    guard height > 0, !ids.isEmpty else { return 0..<0 }
    let index = Self.position(of: selection, in: ids, find: find) ?? 0
    if index < offset { offset = index }
    if index >= offset + height { offset = index - height + 1 }
    offset = min(offset, max(ids.count - height, 0))
    return offset..<min(offset + height, ids.count)
  }

  /// How far `id` is from the start of `ids`, `nil` when it is not there: `find`'s answer, or
  /// a search from the start.
  private static func position(
    of id: ID?, in ids: some RandomAccessCollection<ID>, find: ((ID) -> Int?)?
  ) -> Int? {
    guard let id else { return nil }
    if let find { return find(id) }
    guard let found = ids.firstIndex(of: id) else { return nil }
    return ids.distance(from: ids.startIndex, to: found)
  }
}
