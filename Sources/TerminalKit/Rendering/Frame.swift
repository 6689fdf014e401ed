/// The whole screen as text: a fixed number of rows, each exactly `width` columns wide.
///
/// Screens draw into a frame; the ``FrameRenderer`` turns the difference between two frames into
/// terminal output, and tests read ``text`` to see what a user would see.
package struct Frame: Equatable, Sendable {
  /// A zero-based cell position.
  package struct Position: Equatable, Sendable {
    /// The row, from the top.
    package var row: Int
    /// The column, from the left.
    package var column: Int

    /// Creates a position at `row` and `column`.
    package init(row: Int, column: Int) {
      self.row = row
      self.column = column
    }
  }

  /// How cells are shown beyond their text.
  package enum Style: Equatable, Sendable {
    /// Bold red: something that needs attention, such as an overdue date.
    case alert
  }

  /// A style over a run of columns of one row.
  package struct StyledRun: Equatable, Sendable {
    /// The columns styled.
    package var columns: Range<Int>
    /// Their style.
    package var style: Style

    /// Creates a run of `style` over `columns`.
    package init(columns: Range<Int>, style: Style) {
      self.columns = columns
      self.style = style
    }
  }

  /// The number of columns.
  package let width: Int
  /// The number of rows.
  package let height: Int
  /// The rows, each padded or cut to exactly `width` columns.
  package private(set) var rows: [String]
  /// Each row's styled runs, left to right and apart; the text itself never holds a style, so
  /// widths and truncation are computed on plain text.
  package private(set) var styles: [[StyledRun]]
  /// Where the terminal's cursor shows, or `nil` to hide it.
  package var cursor: Position?

  /// Creates a blank frame; sizes below one column or row are raised to one.
  package init(width: Int, height: Int) {
    self.width = max(width, 1)
    self.height = max(height, 1)
    rows = Array(repeating: String(repeating: " ", count: self.width), count: self.height)
    styles = Array(repeating: [], count: self.height)
  }

  /// Writes `text` on `row` from `column`, covering what was there.
  ///
  /// With a `width`, the text is padded or cut with an ellipsis to exactly that many columns;
  /// without one it covers its own width. Nothing is drawn past the right edge, and rows outside
  /// the frame are ignored.
  ///
  /// - Complexity: O(width) plus the text's length.
  package mutating func draw(_ text: String, row: Int, column: Int = 0, width limit: Int? = nil) {
    guard rows.indices.contains(row), column >= 0, column < width else { return }
    let safe = TerminalSafeText.pictured(text)
    let room = min(limit ?? safe.displayWidth, width - column)
    guard room > 0 else { return }
    let piece = safe.fitted(toWidth: room)
    let line = rows[row]
    rows[row] =
      line.columns(0..<column) + piece + line.columns((column + room)..<width)
    unstyle(row: row, columns: column..<(column + room))
  }

  /// Shows `columns` of `row` in `style`, until text is drawn over them.
  ///
  /// Columns outside the frame are ignored.
  ///
  /// - Complexity: O(styled runs on the row).
  package mutating func style(_ style: Style, row: Int, columns: Range<Int>) {
    guard rows.indices.contains(row) else { return }
    let clamped = columns.clamped(to: 0..<width)
    guard !clamped.isEmpty else { return }
    unstyle(row: row, columns: clamped)
    styles[row].append(StyledRun(columns: clamped, style: style))
    styles[row].sort { $0.columns.lowerBound < $1.columns.lowerBound }
  }

  /// The style of the cell at `column` of `row`, if any.
  ///
  /// - Complexity: O(styled runs on the row).
  package func style(row: Int, column: Int) -> Style? {
    guard styles.indices.contains(row) else { return nil }
    return styles[row].first { $0.columns.contains(column) }?.style
  }

  /// Takes the style off `columns` of `row`, cutting the runs that overlap them.
  private mutating func unstyle(row: Int, columns: Range<Int>) {
    guard !styles[row].isEmpty else { return }
    styles[row] = styles[row].flatMap { run -> [StyledRun] in
      guard run.columns.overlaps(columns) else { return [run] }
      let lower = run.columns.lowerBound
      let upper = run.columns.upperBound
      // The parts of the run left and right of `columns`; clamping keeps each bound in order.
      return [
        run.columns.clamped(to: lower..<max(columns.lowerBound, lower)),
        run.columns.clamped(to: min(columns.upperBound, upper)..<upper),
      ]
      .filter { !$0.isEmpty }
      .map { StyledRun(columns: $0, style: run.style) }
    }
  }

  /// The frame as lines of text without trailing spaces, the way a person reads the screen.
  ///
  /// - Complexity: O(width × height).
  package var text: String {
    rows.map { row in
      var trimmed = Substring(row)
      while trimmed.last == " " { trimmed.removeLast() }
      return String(trimmed)
    }.joined(separator: "\n")
  }
}
