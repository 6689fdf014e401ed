import Navigation
import StateStore
import StateStoreUI
import TodoListFeature

/// The root screen: every todo, one per line, with a movable selection.
///
/// A ``ListView`` connected to ``TodoListViewModel`` by a screen controller while the list is
/// drawn; its interactions dispatch through the application.
@MainActor
final class ListScreen: TodoScreen {
  let routeIdentifier: RouteElementIdentifier = "list"
  let isModal = false
  private weak var app: TodoTerminalApp?
  private var controller: ScreenController<ListView, TodoDependencies>?

  /// Creates the screen; it shows nothing until ``attach(to:)``, because the root must exist
  /// before the navigator, and the navigator before the store it connects to.
  init() {}

  /// Gives the screen its application, and its view with the interactions wired.
  func attach(to app: TodoTerminalApp) {
    self.app = app
    controller = ScreenController(view: ListView(), store: app.store) { view, _ in
      view.didToggle = { [weak app] row in await app?.save(SetDone(id: row.id, done: !row.done)) }
      view.didAskToAdd = { [weak app] in await app?.show("add") }
      view.didOpen = { [weak app] id in await app?.show("detail", context: id) }
      view.didAskToDelete = { [weak app] id in await app?.show("confirm", context: id) }
      view.didAskForHelp = { [weak app] in await app?.show("help") }
      view.didQuit = { [weak app] in app?.quit() }
      view.didBeginFilter = { [weak app] field in app?.list.dispatch(BeginFilterEditing(field)) }
      view.didChangeFilter = { [weak app] text in app?.list.dispatch(SetFilterText(text)) }
      view.didEndFilter = { [weak app] keep in app?.list.dispatch(EndFilterEditing(keep: keep)) }
      view.didCycleSort = { [weak app] in app?.list.dispatch(CycleSort()) }
      let clock = app.store.dependencies.clock
      view.today = { clock.today }
    }
  }

  func appear() { controller?.appear() }
  func disappear() { controller?.disappear() }
  var isVisible: Bool { controller?.isVisible ?? false }

  var keyHints: [KeyHint] {
    if app?.store.state.list.editing != nil {
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
    let app = app
    let helpEntries = helpEntries
    return [
      .show("detail"): .push { context in
        guard let app else { throw ScreenError.closed }
        return try DetailScreen(app: app, todoID: context)
      },
      .show("add"): .presentModally { _ in
        guard let app else { throw ScreenError.closed }
        return TitleEntryScreen(app: app, purpose: .add)
      },
      .show("confirm"): .presentModally { context in
        guard let app else { throw ScreenError.closed }
        return try ConfirmScreen(app: app, todoID: context)
      },
      .show("help"): .presentModally { _ in
        guard let app else { throw ScreenError.closed }
        return HelpScreen(app: app, entries: helpEntries, of: "list")
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
