/// The escape sequences this UI writes: the xterm subset that every current terminal understands.
package enum ANSI {
  package static let enterAlternateScreen = "\u{1B}[?1049h"
  package static let leaveAlternateScreen = "\u{1B}[?1049l"
  package static let hideCursor = "\u{1B}[?25l"
  package static let showCursor = "\u{1B}[?25h"
  /// Autowrap off: a line that is exactly as wide as the screen must not scroll it.
  package static let disableAutowrap = "\u{1B}[?7l"
  package static let enableAutowrap = "\u{1B}[?7h"
  /// Bracketed paste: the terminal marks pasted text with `ESC [200~` and `ESC [201~`.
  package static let enableBracketedPaste = "\u{1B}[?2004h"
  package static let disableBracketedPaste = "\u{1B}[?2004l"
  package static let clearScreen = "\u{1B}[2J"
  package static let resetAttributes = "\u{1B}[0m"
  package static let boldRed = "\u{1B}[1;31m"

  /// The attributes that show `style`.
  package static func attributes(_ style: Frame.Style) -> String {
    switch style {
    case .alert: boldRed
    }
  }

  /// Moves the cursor to a zero-based `row` and `column`.
  package static func moveTo(row: Int, column: Int) -> String {
    "\u{1B}[\(row + 1);\(column + 1)H"
  }
}
