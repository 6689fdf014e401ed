/// Turns successive frames into the terminal output that changes the screen from one to the next.
///
/// The first frame, and any frame after a size change or ``invalidate()``, is drawn in full.
/// Later frames write only the rows that differ, and in each such row only from the first cell
/// that differs, so a change to one todo costs one short write instead of a repaint.
package struct FrameRenderer: Sendable {
  private var previous: Frame?
  private var cursorVisible: Bool?

  /// Creates a renderer that draws its first frame in full.
  package init() {}

  /// Forgets what the screen shows, so the next frame is drawn in full (after a resize, or when
  /// something else may have written to the terminal).
  package mutating func invalidate() {
    previous = nil
    cursorVisible = nil
  }

  /// The output that turns the screen from the previous frame into `frame`; empty if nothing
  /// changed.
  ///
  /// - Complexity: O(width × height).
  package mutating func output(for frame: Frame) -> String {
    var output = ""
    if let previous, previous.width == frame.width, previous.height == frame.height {
      for row in 0..<frame.height
      where previous.rows[row] != frame.rows[row] || previous.styles[row] != frame.styles[row] {
        // A change of style rewrites the row from its start, where its runs are compared.
        let column =
          previous.styles[row] != frame.styles[row]
          ? 0 : Self.firstDifferingColumn(previous.rows[row], frame.rows[row])
        output += ANSI.moveTo(row: row, column: column)
        output += Self.cells(of: frame, row: row, from: column)
      }
    } else {
      output += ANSI.resetAttributes + ANSI.clearScreen
      for row in 0..<frame.height {
        output += ANSI.moveTo(row: row, column: 0) + Self.cells(of: frame, row: row, from: 0)
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

  /// The cells of `row` from `start`, a character boundary, with each styled run wrapped in its
  /// attributes and reset after it, so nothing written later inherits a style.
  ///
  /// A character takes the style of the column it starts at, so a style never splits a wide
  /// character and the text written is exactly the row's.
  ///
  /// - Complexity: O(width).
  private static func cells(of frame: Frame, row: Int, from start: Int) -> String {
    let text = frame.rows[row]
    guard !frame.styles[row].isEmpty else { return text.columns(start..<frame.width) }
    var output = ""
    var column = 0
    var current: Frame.Style?
    for character in text {
      defer { column += character.displayWidth }
      guard column >= start else { continue }
      let style = frame.style(row: row, column: column)
      if style != current {
        if current != nil { output += ANSI.resetAttributes }
        if let style { output += ANSI.attributes(style) }
        current = style
      }
      output.append(character)
    }
    if current != nil { output += ANSI.resetAttributes }
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
