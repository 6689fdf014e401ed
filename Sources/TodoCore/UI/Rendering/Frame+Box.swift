extension Frame {
  /// A rectangle of cells.
  struct Area: Equatable, Sendable {
    /// The top row.
    var row: Int
    /// The left column.
    var column: Int
    /// The number of columns.
    var width: Int
    /// The number of rows.
    var height: Int
  }

  /// Draws a bordered box with `title` in its top edge and `lines` inside, centred on the frame,
  /// over whatever was there: the way modal screens show above the screen that presented them.
  ///
  /// - Returns: The area inside the border.
  /// - Complexity: O(width × lines).
  @discardableResult
  mutating func drawBox(title: String, lines: [String], minimumWidth: Int = 30) -> Area {
    let widest = max(lines.map(\.displayWidth).max() ?? 0, title.displayWidth + 2, minimumWidth)
    let innerWidth = min(widest + 2, width - 2)
    let innerHeight = min(lines.count, max(height - 4, 0))
    let boxWidth = innerWidth + 2
    let boxHeight = innerHeight + 2
    let top = max((height - boxHeight) / 2, 0)
    let left = max((width - boxWidth) / 2, 0)
    guard innerWidth > 0 else { return Area(row: top, column: left, width: 0, height: 0) }
    let heading = " \(title) ".truncated(toWidth: innerWidth)
    let rule = String(repeating: "─", count: innerWidth - heading.displayWidth)
    draw("┌" + heading + rule + "┐", row: top, column: left)
    for index in 0..<innerHeight {
      draw("│", row: top + 1 + index, column: left)
      draw(" " + lines[index], row: top + 1 + index, column: left + 1, width: innerWidth)
      draw("│", row: top + 1 + index, column: left + 1 + innerWidth)
    }
    draw(
      "└" + String(repeating: "─", count: innerWidth) + "┘", row: top + boxHeight - 1,
      column: left)
    return Area(row: top + 1, column: left + 2, width: innerWidth - 1, height: innerHeight)
  }
}
