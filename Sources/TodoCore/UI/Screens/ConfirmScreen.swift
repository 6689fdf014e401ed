import Navigation
import StateStoreUI

/// Asks whether to delete a todo, presented modally over the list: `y` deletes, `n` keeps it.
@MainActor
final class ConfirmScreen: TodoScreen {
  let routeIdentifier: RouteElementIdentifier = "confirm"
  let isModal = true
  /// The todo that `y` deletes.
  let todo: Todo
  private let controller: LocalStateScreenController<ConfirmView, TodoDependencies>

  /// Creates the question for the todo whose id is `context`.
  ///
  /// - Throws: ``ScreenError`` if `context` is not the id of a todo.
  init(app: TodoTerminalApp, todoID context: (any Sendable)?) throws(ScreenError) {
    guard let id = context as? Int else { throw .missingTodoID(screen: "confirm") }
    guard let todo = app.store.state.todos[id: id] else { throw .noSuchTodo(id) }
    self.todo = todo
    controller = LocalStateScreenController(view: ConfirmView(), store: app.store, localState: todo)
    { view, _ in
      view.didConfirm = { [weak app] id in
        await app?.save(RemoveTodo(id: id))
        await app?.hide("confirm")
      }
      view.didCancel = { [weak app] in await app?.hide("confirm") }
    }
  }

  func appear() { controller.appear() }
  func disappear() { controller.disappear() }
  var isVisible: Bool { controller.isVisible }

  var keyHints: [KeyHint] { [KeyHint("y", "delete"), KeyHint("n", "keep")] }

  var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
    [.hide("confirm"): .dismissModally(behaviour: .soft)]
  }

  func handle(_ key: Key) async {
    await controller.view.handle(key)
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    controller.view.draw(in: &frame)
  }
}
