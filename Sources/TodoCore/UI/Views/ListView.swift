import StateStoreUI

/// What the `list` screen draws: every todo, one per line, with a movable selection.
///
/// The selection is the view's own: moving it is not a change of the app's state. What the other
/// keys mean is decided by the screen that wires the interactions.
@MainActor
final class ListView: ModellableView {
  var model: TodoListViewModel?
  private(set) var viewport = ListViewport<Int>()

  /// Toggles the selected row's todo.
  var didToggle: @MainActor (TodoListViewModel.Row) async -> Void = { _ in }
  /// Asks for a new todo.
  var didAskToAdd: @MainActor () async -> Void = {}
  /// Opens the todo with this id.
  var didOpen: @MainActor (Int) async -> Void = { _ in }
  /// Asks to delete the todo with this id.
  var didAskToDelete: @MainActor (Int) async -> Void = { _ in }
  /// Asks for help.
  var didAskForHelp: @MainActor () async -> Void = {}
  /// Quits the UI.
  var didQuit: @MainActor () -> Void = {}

  private var selectedRow: TodoListViewModel.Row? {
    guard let selection = viewport.selection else { return nil }
    return model?.rows.first { $0.id == selection }
  }

  func update(oldModel: TodoListViewModel?) {
    let oldIDs = oldModel?.ids ?? []
    let previousIndex = viewport.selection.flatMap { oldIDs.firstIndex(of: $0) }
    let ids = model?.ids ?? []
    viewport.update(ids: ids, previousIndex: previousIndex)
    // A todo that just appeared (it was added) becomes the selection, so the user sees it.
    let known = Set(oldIDs)
    if model != nil, !oldIDs.isEmpty || ids.count == 1,
      let added = ids.last(where: { !known.contains($0) })
    {
      viewport.select(added)
    }
  }

  func handle(_ key: Key) async {
    let ids = model?.ids ?? []
    switch key {
    case .character("j"), .down: viewport.move(by: 1, in: ids)
    case .character("k"), .up: viewport.move(by: -1, in: ids)
    case .space:
      guard let row = selectedRow else { return }
      await didToggle(row)
    case .character("a"): await didAskToAdd()
    case .enter:
      guard let id = viewport.selection else { return }
      await didOpen(id)
    case .character("d"):
      guard let id = viewport.selection else { return }
      await didAskToDelete(id)
    case .character("?"): await didAskForHelp()
    case .character("q"): didQuit()
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
    let rows = model?.rows ?? []
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
    let summary = "  \(position) of \(rows.count) · \(model?.doneCount ?? 0) done"
    frame.draw(summary, row: body.row + body.height - 1)
  }
}
