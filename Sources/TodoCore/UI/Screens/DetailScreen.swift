import Navigation

/// One todo, pushed over the list: its full title, wrapped, and whether it is done.
///
/// It renders from an element subscription, `store.subscribe(to: \.todos, id:)`, so it hears
/// about its own todo only, however long the list is.
@MainActor
final class DetailScreen: TodoScreen {
  let routeIdentifier: RouteElementIdentifier = "detail"
  let isModal = false
  /// The id of the todo shown.
  let todoID: Int
  private weak var app: TodoTerminalApp?
  private var todo: Todo?
  private var subscription: Subscription?

  /// Creates the screen for the todo whose id is `context`.
  ///
  /// - Throws: ``ScreenError`` if `context` is not the id of a todo.
  init(app: TodoTerminalApp, todoID context: (any Sendable)?) throws(ScreenError) {
    guard let id = context as? Int else { throw .missingTodoID(screen: "detail") }
    guard app.store.state.todos.contains(id: id) else { throw .noSuchTodo(id) }
    self.app = app
    self.todoID = id
    subscription = app.store.subscribe(to: \.todos, id: id) { [weak self] todo in
      self?.todo = todo
    }
  }

  var keyHints: [KeyHint] {
    [
      KeyHint("e", "edit"), KeyHint("space", "toggle"), KeyHint("d", "delete"),
      KeyHint("q/esc", "back"), KeyHint("?", "help"),
    ]
  }

  var helpEntries: [KeyHint] {
    [
      KeyHint("e", "edit the title"), KeyHint("space", "mark done or open"),
      KeyHint("d", "delete the todo"), KeyHint("q, esc", "back to the list"),
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
      .show("help"): .presentModally { _ in
        guard let app else { throw ScreenError.closed }
        return HelpScreen(app: app, entries: helpEntries, of: "detail")
      },
    ]
  }

  func handle(_ key: Key) async {
    guard let app else { return }
    switch key {
    case .character("e"):
      guard todo != nil else { return }
      await app.show("edit", context: todoID)
    case .space:
      guard let todo else { return }
      await app.save(SetDone(id: todoID, done: !todo.done))
    case .character("d"):
      guard todo != nil else { return }
      if await app.save(RemoveTodo(id: todoID)) {
        await app.hide("detail")
      }
    case .character("q"), .escape: await app.hide("detail")
    case .character("?"): await app.show("help")
    default: break
    }
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    guard let todo else {
      frame.draw("  Todo \(todoID) no longer exists. Press q to go back.", row: body.row + 1)
      return
    }
    guard body.height >= 5 else {
      // Too short for the labelled layout: the todo on as many lines as there are.
      let text = "\(todo.done ? "[x]" : "[ ]") \(todo.id)  \(TerminalSafeText.pictured(todo.title))"
      let lines = text.wrapped(toWidth: body.width)
      for (index, line) in lines.prefix(body.height).enumerated() {
        let cut = index == body.height - 1 && lines.count > body.height
        frame.draw(cut ? line + "…" : line, row: body.row + index)
      }
      return
    }
    let labelWidth = 10
    frame.draw("  Todo", row: body.row + 1)
    frame.draw(String(todo.id), row: body.row + 1, column: labelWidth)
    frame.draw("  Status", row: body.row + 2)
    frame.draw(todo.done ? "done" : "open", row: body.row + 2, column: labelWidth)
    frame.draw("  Title", row: body.row + 3)
    let lines = TerminalSafeText.pictured(todo.title).wrapped(
      toWidth: max(body.width - labelWidth, 1))
    let room = max(body.height - 4, 0)
    for (index, line) in lines.prefix(room).enumerated() {
      let text = index == room - 1 && lines.count > room ? line + "…" : line
      frame.draw(text, row: body.row + 3 + index, column: labelWidth)
    }
  }
}
