/// One key press, decoded from the bytes a terminal sends.
package enum Key: Hashable, Sendable {
  /// A printable character: one grapheme cluster, possibly several Unicode scalars (emoji).
  case character(Character)
  /// A character of pasted text (between the terminal's bracketed-paste marks).
  ///
  /// Only a text field takes it; other screens ignore it, so pasting `dyq` into the list can
  /// neither delete a todo nor quit. A line break in a paste arrives as a space.
  case pasted(Character)
  /// Enter or Return.
  case enter
  /// A lone Escape, not the start of an escape sequence.
  case escape
  /// Backspace (DEL or Ctrl-H).
  case backspace
  /// The forward Delete key.
  case delete
  /// Tab.
  case tab
  /// The arrow keys.
  case up, down, left, right
  /// Home and End.
  case home, end
  /// Ctrl-C: with the terminal in raw mode it arrives as a byte, not as a signal.
  case interrupt
  /// Any other control byte, as Ctrl plus a letter (Ctrl-D is `control(0x04)`).
  case control(UInt8)
  /// An escape sequence this UI does not use (function keys, mouse reports); ignored.
  case unsupported

  /// The space bar, which is also a printable character for text fields.
  package static let space = Key.character(" ")
}
