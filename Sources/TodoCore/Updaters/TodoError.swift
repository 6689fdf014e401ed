import TerminalKit

/// Why a requested change cannot be made.
enum TodoError: Error, Hashable, Sendable, CustomStringConvertible {
  /// No todo has this id.
  case noSuchTodo(Int)
  /// A todo with this id already exists.
  case idInUse(Int)
  /// The title is empty or only whitespace.
  case emptyTitle
  /// Every recorded change has already been undone.
  case nothingToUndo
  /// A tag that is empty or holds a space.
  case invalidTag(String)
  /// A change that names no tag.
  case noTags

  /// A message for the user.
  var description: String {
    switch self {
    case .noSuchTodo(let id): "no todo with id \(id)"
    case .idInUse(let id): "a todo with id \(id) already exists"
    case .emptyTitle: "the title is empty; give a title with at least one visible character"
    case .nothingToUndo: "nothing to undo"
    case .invalidTag(let tag):
      "'\(TerminalSafeText.escaped(tag))' is not a tag: a tag is one word, without spaces"
    case .noTags: "no tag given: name at least one tag"
    }
  }
}
