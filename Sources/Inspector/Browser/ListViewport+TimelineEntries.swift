import TerminalKit

/// The timeline's viewport finds the selected entry among the timeline's entries by bisection,
/// in O(log n), instead of searching them from the start.
extension ListViewport<Int> {
  /// ``ListViewport/update(ids:previousIndex:find:)``, finding entries by bisection.
  ///
  /// - Complexity: O(log n).
  mutating func update(ids: TimelineEntries, previousIndex: Int?) {
    update(ids: ids, previousIndex: previousIndex, find: ids.position(of:))
  }

  /// ``ListViewport/move(by:in:find:)``, finding entries by bisection.
  ///
  /// - Complexity: O(log n).
  mutating func move(by delta: Int, in ids: TimelineEntries) {
    move(by: delta, in: ids, find: ids.position(of:))
  }

  /// ``ListViewport/visibleRange(in:height:find:)``, finding entries by bisection.
  ///
  /// - Complexity: O(log n).
  mutating func visibleRange(in ids: TimelineEntries, height: Int) -> Range<Int> {
    visibleRange(in: ids, height: height, find: ids.position(of:))
  }
}
