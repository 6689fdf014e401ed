import Navigation
import StateStoreUI
import TerminalKit

/// Asks whether to delete a todo, presented modally over the list: the ``SubFlow/confirmDelete``
/// sub-flow, which `y` finishes with `true` and `n` with `false`; Escape hides it, without a
/// result.
///
/// The box deletes nothing itself: the list awaits its answer and deletes on `true`.
@MainActor
final class ConfirmScreen: TodoScreen {
  let routeIdentifier: RouteElementIdentifier = "confirm"
  let isModal = true
  /// The todo asked about.
  let todo: Todo
  private let controller: LocalStateScreenController<ConfirmView, TodoDependencies>

  /// Creates the question for the todo whose id is `context`.
  ///
  /// - Throws: ``ScreenError`` if `context` is not the id of a todo.
  init(stores: ScreenStores, todoID context: (any Sendable)?) throws(ScreenError) {
    guard let id = context as? Int else { throw .missingTodoID(screen: "confirm") }
    guard let store = stores.root.store else { throw .closed }
    guard let todo = store.state.todos[id: id] else { throw .noSuchTodo(id) }
    self.todo = todo
    controller = LocalStateScreenController(view: ConfirmView(), store: store, localState: todo) {
      view, _ in
      view.didConfirm = { _ in await stores.navigate(Finish(.confirmDelete, with: true)) }
      view.didDecline = { await stores.navigate(Finish(.confirmDelete, with: false)) }
      view.didCancel = { await stores.navigate(Hide("confirm")) }
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
