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
  /// - Complexity: O(n) in the number of rows.
  package mutating func update(ids: [ID], previousIndex: Int?) {
    guard !ids.isEmpty else {
      selection = nil
      return
    }
    if let selection, ids.contains(selection) { return }
    let index = min(max(previousIndex ?? 0, 0), ids.count - 1)
    selection = ids[index]
  }

  /// Moves the selection by `delta` rows, stopping at either end.
  ///
  /// - Complexity: O(n) in the number of rows.
  package mutating func move(by delta: Int, in ids: [ID]) {
    guard !ids.isEmpty else { return }
    let current = selection.flatMap { ids.firstIndex(of: $0) } ?? 0
    selection = ids[min(max(current + delta, 0), ids.count - 1)]
  }

  /// Selects the row with `id`.
  package mutating func select(_ id: ID) { selection = id }

  /// Scrolls so the selected row is among the `height` rows shown; returns the visible range.
  ///
  /// - Complexity: O(n) in the number of rows.
  package mutating func visibleRange(in ids: [ID], height: Int) -> Range<Int> {
    guard height > 0, !ids.isEmpty else { return 0..<0 }
    let index = selection.flatMap { ids.firstIndex(of: $0) } ?? 0
    if index < offset { offset = index }
    if index >= offset + height { offset = index - height + 1 }
    offset = min(offset, max(ids.count - height, 0))
    return offset..<min(offset + height, ids.count)
  }
}
