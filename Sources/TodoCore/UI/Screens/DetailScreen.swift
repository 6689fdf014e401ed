import Navigation
import StateStoreUI
import TodoDetailFeature

/// One todo, pushed over the list: its full title, wrapped, and whether it is done.
///
/// A ``DetailView`` whose model is projected from the state and the todo's id, the screen's
/// local state, by a screen controller while the screen is drawn.
@MainActor
final class DetailScreen: TodoScreen {
  let routeIdentifier: RouteElementIdentifier = "detail"
  let isModal = false
  /// The id of the todo shown.
  let todoID: Int
  private weak var app: TodoTerminalApp?
  private let controller: LocalStateScreenController<DetailView, TodoDependencies>

  /// Creates the screen for the todo whose id is `context`.
  ///
  /// - Throws: ``ScreenError`` if `context` is not the id of a todo.
  init(app: TodoTerminalApp, todoID context: (any Sendable)?) throws(ScreenError) {
    guard let id = context as? Int else { throw .missingTodoID(screen: "detail") }
    guard app.store.state.todos.contains(id: id) else { throw .noSuchTodo(id) }
    self.app = app
    self.todoID = id
    app.detail.dispatch(OpenTodoDetail(id: id))
    controller = LocalStateScreenController(view: DetailView(), store: app.store, localState: id) {
      view, _ in
      view.didAskToEdit = { [weak app] id in await app?.show("edit", context: id) }
      view.didToggle = { [weak app] todo in await app?.save(SetDone(id: todo.id, done: !todo.done))
      }
      view.didDelete = { [weak app] id in
        guard let app, await app.save(RemoveTodo(id: id)) else { return }
        await app.hide("detail")
      }
      view.didGoBack = { [weak app] in
        app?.detail.dispatch(CloseTodoDetail())
        await app?.hide("detail")
      }
      view.didAskForHelp = { [weak app] in await app?.show("help") }
      view.didCyclePriority = { [weak app] todo in
        let current = todo.priority.flatMap { DetailPriority(rawValue: $0.rawValue) }
        let next = DetailPriority.after(current).flatMap { Priority(rawValue: $0.rawValue) }
        await app?.save(SetPriority(id: todo.id, priority: next))
      }
      view.didAskForDueDate = { [weak app] id in await app?.show("due", context: id) }
      let clock = app.store.dependencies.clock
      view.today = { clock.today }
    }
  }

  func appear() { controller.appear() }
  func disappear() { controller.disappear() }
  var isVisible: Bool { controller.isVisible }

  var keyHints: [KeyHint] {
    [
      KeyHint("e", "edit"), KeyHint("space", "toggle"), KeyHint("p", "priority"),
      KeyHint("D", "due"), KeyHint("d", "delete"), KeyHint("q/esc", "back"),
      KeyHint("?", "help"),
    ]
  }

  var helpEntries: [KeyHint] {
    [
      KeyHint("e", "edit the title"), KeyHint("space", "mark done or open"),
      KeyHint("p", "priority: none, high, medium, low"),
      KeyHint("D", "set the due date (a date screen)"), KeyHint("d", "delete the todo"),
      KeyHint("q, esc", "back to the list"),
      KeyHint("?", "show this help"),
    ]
  }

  var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
    let app = app
    let helpEntries = helpEntries
    return [
      .hide("detail"): .pop,
      .show("edit"): .presentModally { context in
        guard let app else { throw ScreenError.closed }
        guard let id = context as? Int else { throw ScreenError.missingTodoID(screen: "edit") }
        guard let todo = app.store.state.todos[id: id] else { throw ScreenError.noSuchTodo(id) }
        return TitleEntryScreen(app: app, purpose: .edit(todo))
      },
      .show("due"): .presentModally { context in
        guard let app else { throw ScreenError.closed }
        guard let id = context as? Int else { throw ScreenError.missingTodoID(screen: "due") }
        guard let todo = app.store.state.todos[id: id] else { throw ScreenError.noSuchTodo(id) }
        return DueDateScreen(app: app, todo: todo) { [weak app] date in
          await app?.setDue(date, of: id) ?? false
        }
      },
      .show("help"): .presentModally { _ in
        guard let app else { throw ScreenError.closed }
        return HelpScreen(app: app, entries: helpEntries, of: "detail")
      },
    ]
  }

  func handle(_ key: Key) async {
    await controller.view.handle(key)
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    controller.view.draw(in: &frame, body: body)
  }
}
