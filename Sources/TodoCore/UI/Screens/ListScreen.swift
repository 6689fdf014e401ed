import Navigation
import StateStore
import StateStoreUI
import TerminalKit
import TodoListFeature

/// The root screen: every todo, one per line, with a movable selection.
///
/// A ``ListView`` connected to ``TodoListViewModel`` by a screen controller while the list is
/// drawn. `a` and `d` show the `add` box and the `confirm` box as sub-flows: the list adds the
/// title the box returns, and deletes only when the answer is `true`.
@MainActor
final class ListScreen: TodoScreen {
  let routeIdentifier: RouteElementIdentifier = "list"
  let isModal = false
  private var stores: ScreenStores?
  private var controller: ScreenController<ListView, TodoDependencies>?

  /// Creates the screen; it shows nothing until ``connect(to:quit:)``, because the root must
  /// exist before the navigator, and the navigator before the store it connects to.
  init() {}

  /// Gives the screen the stores, and its view with the interactions wired; `quit` ends the UI.
  func connect(to stores: ScreenStores, quit: @escaping @MainActor () -> Void) {
    self.stores = stores
    guard let store = stores.root.store else { return }
    controller = ScreenController(view: ListView(), store: store) { view, _ in
      view.didToggle = { row in await stores.save(SetDone(id: row.id, done: !row.done)) }
      view.didAskToAdd = {
        await stores.call(ShowForResult(.addTitle)) { title in
          guard let title, await !stores.save(AddTodo(title: title)) else { return nil }
          return ShowForResult(.addTitle, context: title)
        }
      }
      view.didOpen = { id in await stores.navigate(Show("detail", context: id)) }
      view.didAskToDelete = { id in
        await stores.call(ShowForResult(.confirmDelete, context: id)) { confirmed in
          guard confirmed == true else { return }
          await stores.save(RemoveTodo(id: id))
        }
      }
      view.didAskForHelp = { await stores.navigate(Show("help")) }
      view.didQuit = quit
      view.didBeginFilter = { field in stores.list.dispatch(BeginFilterEditing(field)) }
      view.didChangeFilter = { text in stores.list.dispatch(SetFilterText(text)) }
      view.didEndFilter = { keep in stores.list.dispatch(EndFilterEditing(keep: keep)) }
      view.didCycleSort = { stores.list.dispatch(CycleSort()) }
      let clock = stores.clock
      view.today = { clock.today }
    }
  }

  func appear() { controller?.appear() }
  func disappear() { controller?.disappear() }
  var isVisible: Bool { controller?.isVisible ?? false }

  var keyHints: [KeyHint] {
    if stores?.root.state?.list.editing != nil {
      return [KeyHint("enter", "keep filter"), KeyHint("esc", "clear filter")]
    }
    return [
      KeyHint("j/k", "move"), KeyHint("space", "toggle"), KeyHint("a", "add"),
      KeyHint("enter", "open"), KeyHint("d", "delete"),
      // Search, tag filter and sort share one hint, so that the line fits 80 columns; the
      // help screen spells each out.
      KeyHint("/ t s", "view"), KeyHint("?", "help"), KeyHint("q", "quit"),
    ]
  }

  var helpEntries: [KeyHint] {
    [
      KeyHint("j, ↓", "move down"), KeyHint("k, ↑", "move up"),
      KeyHint("space", "mark done or open"), KeyHint("a", "add a todo"),
      KeyHint("enter", "open the todo"), KeyHint("d", "delete the todo (asks y/n)"),
      KeyHint("/", "search the titles (enter keeps, esc clears)"),
      KeyHint("t", "show one tag (enter keeps, esc clears)"),
      KeyHint("s", "sort: added, due, priority, title"),
      KeyHint("?", "show this help"), KeyHint("q", "quit"),
    ]
  }

  var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
    guard let stores else { return [:] }
    let helpEntries = helpEntries
    return [
      .show("detail"): .push { context in try DetailScreen(stores: stores, todoID: context) },
      .show("add"): .presentModally { context in
        try TitleEntryScreen(stores: stores, purpose: .add, draft: context as? String)
      },
      .show("confirm"): .presentModally { context in
        try ConfirmScreen(stores: stores, todoID: context)
      },
      .show("help"): .presentModally { _ in
        try HelpScreen(stores: stores, entries: helpEntries, of: "list")
      },
    ]
  }

  func handle(_ key: Key) async {
    await controller?.view.handle(key)
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    controller?.view.draw(in: &frame, body: body)
  }
}
