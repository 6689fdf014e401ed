/// Turns successive frames into the terminal output that changes the screen from one to the next.
///
/// The first frame, and any frame after a size change or ``invalidate()``, is drawn in full.
/// Later frames write only the rows that differ, and in each such row only from the first cell
/// that differs, so a change to one todo costs one short write instead of a repaint.
struct FrameRenderer: Sendable {
  private var previous: Frame?
  private var cursorVisible: Bool?

  /// Creates a renderer that draws its first frame in full.
  init() {}

  /// Forgets what the screen shows, so the next frame is drawn in full (after a resize, or when
  /// something else may have written to the terminal).
  mutating func invalidate() {
    previous = nil
    cursorVisible = nil
  }

  /// The output that turns the screen from the previous frame into `frame`; empty if nothing
  /// changed.
  ///
  /// - Complexity: O(width × height).
  mutating func output(for frame: Frame) -> String {
    var output = ""
    if let previous, previous.width == frame.width, previous.height == frame.height {
      for row in 0..<frame.height where previous.rows[row] != frame.rows[row] {
        let column = Self.firstDifferingColumn(previous.rows[row], frame.rows[row])
        output += ANSI.moveTo(row: row, column: column)
        output += frame.rows[row].columns(column..<frame.width)
      }
    } else {
      output += ANSI.resetAttributes + ANSI.clearScreen
      for row in 0..<frame.height {
        output += ANSI.moveTo(row: row, column: 0) + frame.rows[row]
      }
    }
    let moved = !output.isEmpty || previous?.cursor != frame.cursor
    if let cursor = frame.cursor {
      if moved { output += ANSI.moveTo(row: cursor.row, column: cursor.column) }
      if cursorVisible != true { output += ANSI.showCursor }
    } else if cursorVisible != false {
      output += ANSI.hideCursor
    }
    cursorVisible = frame.cursor != nil
    previous = frame
    return output
  }

  /// The column of the first grapheme cluster that differs between two rows.
  private static func firstDifferingColumn(_ old: String, _ new: String) -> Int {
    var column = 0
    var oldIterator = old.makeIterator()
    for character in new {
      guard let oldCharacter = oldIterator.next(), oldCharacter == character else { break }
      column += character.displayWidth
    }
    return column
  }
}
