/// The whole screen as text: a fixed number of rows, each exactly `width` columns wide.
///
/// Screens draw into a frame; the ``FrameRenderer`` turns the difference between two frames into
/// terminal output, and tests read ``text`` to see what a user would see.
struct Frame: Equatable, Sendable {
  /// A zero-based cell position.
  struct Position: Equatable, Sendable {
    /// The row, from the top.
    var row: Int
    /// The column, from the left.
    var column: Int
  }

  /// The number of columns.
  let width: Int
  /// The number of rows.
  let height: Int
  /// The rows, each padded or cut to exactly `width` columns.
  private(set) var rows: [String]
  /// Where the terminal's cursor shows, or `nil` to hide it.
  var cursor: Position?

  /// Creates a blank frame; sizes below one column or row are raised to one.
  init(width: Int, height: Int) {
    self.width = max(width, 1)
    self.height = max(height, 1)
    rows = Array(repeating: String(repeating: " ", count: self.width), count: self.height)
  }

  /// Writes `text` on `row` from `column`, covering what was there.
  ///
  /// With a `width`, the text is padded or cut with an ellipsis to exactly that many columns;
  /// without one it covers its own width. Nothing is drawn past the right edge, and rows outside
  /// the frame are ignored.
  ///
  /// - Complexity: O(width) plus the text's length.
  mutating func draw(_ text: String, row: Int, column: Int = 0, width limit: Int? = nil) {
    guard rows.indices.contains(row), column >= 0, column < width else { return }
    let safe = TerminalSafeText.pictured(text)
    let room = min(limit ?? safe.displayWidth, width - column)
    guard room > 0 else { return }
    let piece = safe.fitted(toWidth: room)
    let line = rows[row]
    rows[row] =
      line.columns(0..<column) + piece + line.columns((column + room)..<width)
  }

  /// The frame as lines of text without trailing spaces, the way a person reads the screen.
  ///
  /// - Complexity: O(width × height).
  var text: String {
    rows.map { row in
      var trimmed = Substring(row)
      while trimmed.last == " " { trimmed.removeLast() }
      return String(trimmed)
    }.joined(separator: "\n")
  }
}
