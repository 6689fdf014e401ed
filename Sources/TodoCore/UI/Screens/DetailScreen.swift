import Navigation
import StateStoreUI
import TerminalKit
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
  private let stores: ScreenStores
  private let controller: LocalStateScreenController<DetailView, TodoDependencies>

  /// Creates the screen for the todo whose id is `context`.
  ///
  /// `e` and `D` show the `edit` box and the date screen as sub-flows, and save what they
  /// return; Esc in either returns nothing, and nothing changes.
  ///
  /// - Throws: ``ScreenError`` if `context` is not the id of a todo.
  init(stores: ScreenStores, todoID context: (any Sendable)?) throws(ScreenError) {
    guard let id = context as? Int else { throw .missingTodoID(screen: "detail") }
    guard let store = stores.root.store else { throw .closed }
    guard store.state.todos.contains(id: id) else { throw .noSuchTodo(id) }
    self.stores = stores
    self.todoID = id
    stores.detail.dispatch(OpenTodoDetail(id: id))
    controller = LocalStateScreenController(view: DetailView(), store: store, localState: id) {
      view, _ in
      view.didAskToEdit = { id in
        await stores.call(ShowForResult(.editTitle, context: id)) { title in
          guard let title, title != stores.root.state?.todos[id: id]?.title,
            await !stores.save(EditTitle(id: id, title: title))
          else { return nil }
          // A todo removed elsewhere has no title to edit: the save's reason stays shown.
          guard stores.root.state?.todos.contains(id: id) == true else { return nil }
          return ShowForResult(.editTitle, context: TitleDraft(todoID: id, text: title))
        }
      }
      view.didToggle = { todo in await stores.save(SetDone(id: todo.id, done: !todo.done)) }
      view.didDelete = { id in
        guard await stores.save(RemoveTodo(id: id)) else { return }
        await stores.navigate(Hide("detail"))
      }
      view.didGoBack = {
        stores.detail.dispatch(CloseTodoDetail())
        await stores.navigate(Hide("detail"))
      }
      view.didAskForHelp = { await stores.navigate(Show("help")) }
      view.didCyclePriority = { todo in
        let current = todo.priority.flatMap { DetailPriority(rawValue: $0.rawValue) }
        let next = DetailPriority.after(current).flatMap { Priority(rawValue: $0.rawValue) }
        await stores.save(SetPriority(id: todo.id, priority: next))
      }
      view.didAskForDueDate = { id in
        await stores.call(ShowForResult(.dueDate, context: id)) { choice in
          guard let choice else { return }
          await stores.save(SetDue(id: id, due: choice.due))
        }
      }
      let clock = stores.clock
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
    let stores = stores
    let helpEntries = helpEntries
    return [
      .hide("detail"): .pop,
      .show("edit"): .presentModally { context in
        let draft = context as? TitleDraft
        guard let id = draft?.todoID ?? context as? Int else {
          throw ScreenError.missingTodoID(screen: "edit")
        }
        guard let todo = stores.root.state?.todos[id: id] else { throw ScreenError.noSuchTodo(id) }
        return try TitleEntryScreen(stores: stores, purpose: .edit(todo), draft: draft?.text)
      },
      .show("due"): .presentModally { context in
        guard let id = context as? Int else { throw ScreenError.missingTodoID(screen: "due") }
        guard let todo = stores.root.state?.todos[id: id] else { throw ScreenError.noSuchTodo(id) }
        return try DueDateScreen(stores: stores, todo: todo)
      },
      .show("help"): .presentModally { _ in
        try HelpScreen(stores: stores, entries: helpEntries, of: "detail")
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
