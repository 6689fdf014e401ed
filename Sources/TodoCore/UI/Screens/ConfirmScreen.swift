import Navigation

/// Asks whether to delete a todo, presented modally over the list: `y` deletes, `n` keeps it.
@MainActor
final class ConfirmScreen: TodoScreen {
  let routeIdentifier: RouteElementIdentifier = "confirm"
  let isModal = true
  /// The todo that `y` deletes.
  let todo: Todo
  private weak var app: TodoTerminalApp?

  /// Creates the question for the todo whose id is `context`.
  ///
  /// - Throws: ``ScreenError`` if `context` is not the id of a todo.
  init(app: TodoTerminalApp, todoID context: (any Sendable)?) throws(ScreenError) {
    guard let id = context as? Int else { throw .missingTodoID(screen: "confirm") }
    guard let todo = app.store.state.todos[id: id] else { throw .noSuchTodo(id) }
    self.app = app
    self.todo = todo
  }

  var keyHints: [KeyHint] { [KeyHint("y", "delete"), KeyHint("n", "keep")] }

  var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
    [.hide("confirm"): .dismissModally(behaviour: .soft)]
  }

  func handle(_ key: Key) async {
    guard let app else { return }
    switch key {
    case .character("y"), .character("Y"):
      await app.save(RemoveTodo(id: todo.id))
      await app.hide("confirm")
    case .character("n"), .character("N"), .escape:
      await app.hide("confirm")
    default: break
    }
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    let title = TerminalSafeText.pictured(todo.title).truncated(toWidth: max(frame.width - 30, 8))
    frame.drawBox(
      title: "Delete", lines: ["Delete todo \(todo.id) “\(title)”?", "", "y: delete   n: keep"],
      minimumWidth: 24)
  }
}
