extension Frame {
  /// A rectangle of cells.
  package struct Area: Equatable, Sendable {
    /// The top row.
    package var row: Int
    /// The left column.
    package var column: Int
    /// The number of columns.
    package var width: Int
    /// The number of rows.
    package var height: Int

    /// Creates an area of `width` × `height` cells whose top left cell is at `row`, `column`.
    package init(row: Int, column: Int, width: Int, height: Int) {
      self.row = row
      self.column = column
      self.width = width
      self.height = height
    }
  }

  /// Draws a bordered box with `title` in its top edge and `lines` inside, centred on the frame,
  /// over whatever was there: the way modal screens show above the screen that presented them.
  ///
  /// A frame too small for a border around at least one line (fewer than 5 rows or 5 columns)
  /// gets the lines without a border instead, as many as fit between the top line and the
  /// bottom line, so a tiny window still shows the question or the field.
  ///
  /// - Returns: The area the lines are drawn in.
  /// - Complexity: O(width × lines).
  @discardableResult
  package mutating func drawBox(title: String, lines: [String], minimumWidth: Int = 30) -> Area {
    let widest = max(lines.map(\.displayWidth).max() ?? 0, title.displayWidth + 2, minimumWidth)
    let innerWidth = min(widest + 2, width - 2)
    let innerHeight = min(lines.count, max(height - 4, 0))
    let boxWidth = innerWidth + 2
    let boxHeight = innerHeight + 2
    let top = max((height - boxHeight) / 2, 0)
    let left = max((width - boxWidth) / 2, 0)
    guard innerWidth >= 3, innerHeight >= 1 else { return drawUnboxed(lines) }
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

  /// Draws `lines` across the full width, between the top and bottom lines when there are any.
  private mutating func drawUnboxed(_ lines: [String]) -> Area {
    let first = height >= 3 ? 1 : 0
    let last = height >= 3 ? height - 2 : height - 1
    let shown = min(lines.count, max(last - first + 1, 0))
    for index in 0..<shown {
      draw(lines[index], row: first + index, column: 0, width: width)
    }
    return Area(row: first, column: 0, width: width, height: shown)
  }
}
