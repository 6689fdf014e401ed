import Navigation

/// The root screen: every todo, one per line, with a movable selection.
///
/// It renders from a ``TodoListViewModel`` subscription and keeps the selection by todo id.
@MainActor
final class ListScreen: TodoScreen {
  let routeIdentifier: RouteElementIdentifier = "list"
  let isModal = false
  private weak var app: TodoTerminalApp?
  private var viewModel: TodoListViewModel?
  private var viewport = ListViewport<Int>()
  private var subscription: Subscription?

  /// Creates the screen; it shows nothing until ``attach(to:)``, because the root must exist
  /// before the navigator, and the navigator before the store it subscribes to.
  init() {}

  /// Connects the screen to its application and subscribes to the list's view model.
  func attach(to app: TodoTerminalApp) {
    self.app = app
    subscription = app.store.subscribe(TodoListViewModel.self) { [weak self] viewModel in
      self?.update(viewModel)
    }
  }

  /// The id of the selected todo, or `nil` when the list is empty.
  var selectedID: Int? { viewport.selection }

  private var selectedRow: TodoListViewModel.Row? {
    guard let selection = viewport.selection else { return nil }
    return viewModel?.rows.first { $0.id == selection }
  }

  private func update(_ new: TodoListViewModel?) {
    let oldIDs = viewModel?.ids ?? []
    let previousIndex = viewport.selection.flatMap { oldIDs.firstIndex(of: $0) }
    viewModel = new
    let ids = new?.ids ?? []
    viewport.update(ids: ids, previousIndex: previousIndex)
    // A todo that just appeared (it was added) becomes the selection, so the user sees it.
    let known = Set(oldIDs)
    if viewModel != nil, !oldIDs.isEmpty || ids.count == 1,
      let added = ids.last(where: { !known.contains($0) })
    {
      viewport.select(added)
    }
  }

  var keyHints: [KeyHint] {
    [
      KeyHint("j/k", "move"), KeyHint("space", "toggle"), KeyHint("a", "add"),
      KeyHint("enter", "open"), KeyHint("d", "delete"), KeyHint("?", "help"),
      KeyHint("q", "quit"),
    ]
  }

  var helpEntries: [KeyHint] {
    [
      KeyHint("j, ↓", "move down"), KeyHint("k, ↑", "move up"),
      KeyHint("space", "mark done or open"), KeyHint("a", "add a todo"),
      KeyHint("enter", "open the todo"), KeyHint("d", "delete the todo (asks y/n)"),
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
    guard let app else { return }
    let ids = viewModel?.ids ?? []
    switch key {
    case .character("j"), .down: viewport.move(by: 1, in: ids)
    case .character("k"), .up: viewport.move(by: -1, in: ids)
    case .space:
      guard let row = selectedRow else { return }
      await app.save(SetDone(id: row.id, done: !row.done))
    case .character("a"): await app.show("add")
    case .enter:
      guard let id = viewport.selection else { return }
      await app.show("detail", context: id)
    case .character("d"):
      guard let id = viewport.selection else { return }
      await app.show("confirm", context: id)
    case .character("?"): await app.show("help")
    case .character("q"): app.quit()
    default: break
    }
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    guard body.height > 0 else { return }
    // A short window drops the blank line above the list and the summary below it, so every
    // row of the body shows todos.
    let compact = body.height < 4
    let listTop = compact ? body.row : body.row + 1
    let listHeight = compact ? body.height : body.height - 2
    let rows = viewModel?.rows ?? []
    if rows.isEmpty {
      frame.draw("  No todos yet. Press a to add one.", row: listTop)
      return
    }
    let range = viewport.visibleRange(in: rows.map(\.id), height: listHeight)
    // The widest id by its text, so a negative id from a damaged file cannot make the padding
    // negative.
    let idWidth = rows.map { String($0.id).count }.max() ?? 0
    for (line, index) in range.enumerated() {
      let row = rows[index]
      let marker = row.id == viewport.selection ? ">" : " "
      let idText = String(row.id)
      let id = String(repeating: " ", count: max(idWidth - idText.count, 0)) + idText
      let prefix = "\(marker) [\(row.done ? "x" : " ")] \(id)  "
      frame.draw(prefix + row.title, row: listTop + line, width: body.width)
    }
    guard !compact else { return }
    let position = (viewport.selection.flatMap { rows.map(\.id).firstIndex(of: $0) } ?? 0) + 1
    let summary = "  \(position) of \(rows.count) · \(viewModel?.doneCount ?? 0) done"
    frame.draw(summary, row: body.row + body.height - 1)
  }
}
