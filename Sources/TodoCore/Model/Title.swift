/// The rules a todo's title must follow.
enum Title {
  /// Whether `text` can be a title: anything with at least one non-whitespace character.
  static func isValid(_ text: String) -> Bool {
    text.contains { !$0.isWhitespace }
  }
}
