import Navigation
import TerminalKit

/// Why a screen could not be built for a navigation request.
enum ScreenError: Error, Equatable, CustomStringConvertible {
  /// The request's context was not a todo id.
  case missingTodoID(screen: RouteElementIdentifier)
  /// No todo has the id given as context.
  case noSuchTodo(Int)
  /// The UI that would own the screen is gone.
  case closed

  var description: String {
    switch self {
    case .missingTodoID(let screen): "the \(screen) screen needs a todo id as its context"
    case .noSuchTodo(let id): "no todo with id \(id)"
    case .closed: "the terminal UI has closed"
    }
  }
}
