import StateStoreUI
import TerminalKit
import TodoListFeature

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
  /// Starts typing into a filter: `/` the search, `t` the tag.
  var didBeginFilter: @MainActor (FilterField) async -> Void = { _ in }
  /// The filter being typed into now holds this text.
  var didChangeFilter: @MainActor (String) async -> Void = { _ in }
  /// Stops typing into the filter, keeping it or clearing it.
  var didEndFilter: @MainActor (_ keep: Bool) async -> Void = { _ in }
  /// Moves to the next sort.
  var didCycleSort: @MainActor () async -> Void = {}
  /// The day it is, to tell the overdue todos.
  var today: @MainActor () -> CalendarDate = { .earliest }

  /// What is being typed into the filter, with its cursor; the filter itself is in the model.
  private(set) var filterField = TextField()

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
    if let editing = model?.filters.editing {
      await handleFilter(key, editing: editing)
      return
    }
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
    case .character("/"): await beginFilter(.search)
    case .character("t"): await beginFilter(.tag)
    case .character("s"): await didCycleSort()
    default: break
    }
  }

  private func beginFilter(_ field: FilterField) async {
    let filters = model?.filters
    filterField = TextField(field == .search ? filters?.search ?? "" : filters?.tag ?? "")
    await didBeginFilter(field)
  }

  /// A key while a filter is being typed: Enter keeps it, Esc clears it, the rest edit it.
  private func handleFilter(_ key: Key, editing: FilterField) async {
    switch key {
    case .enter: await didEndFilter(true)
    case .escape: await didEndFilter(false)
    default:
      let before = filterField.text
      _ = filterField.handle(key)
      // A tag has no spaces: the filter shows what can match.
      if editing == .tag, filterField.text.contains(where: \.isWhitespace) {
        filterField = TextField(before)
      }
      if filterField.text != before { await didChangeFilter(filterField.text) }
    }
  }

  /// The line above the list: the filters and the sort in force, or the one being typed.
  private var filterLine: String? {
    guard let filters = model?.filters else { return nil }
    var parts: [String] = []
    if filters.editing == .search || !filters.search.isEmpty {
      let typing = filters.editing == .search
      parts.append("search: " + (typing ? filterField.text + "▏" : filters.search))
    }
    if filters.editing == .tag || filters.tag != nil {
      let typing = filters.editing == .tag
      parts.append("tag: " + (typing ? filterField.text + "▏" : filters.tag ?? ""))
    }
    if filters.sort != .added { parts.append("sort: " + filters.sort.rawValue) }
    return parts.isEmpty ? nil : "  " + parts.joined(separator: "  ")
  }

  /// What follows a row's title: `!high`, the due date (`OVERDUE 2026-03-01` once it is before
  /// today) and the tags; with the columns of the overdue date within it, which are drawn in
  /// the alert style.
  static func details(of row: TodoListViewModel.Row, today: CalendarDate)
    -> (text: String, overdue: Range<Int>?)
  {
    var parts: [String] = []
    var overdue: Range<Int>?
    if let priority = row.priority { parts.append("!" + priority.rawValue) }
    if let due = row.due {
      if due < today {
        // What precedes it is the priority, plain ASCII, so its length is its width.
        let start = parts.isEmpty ? 0 : parts.joined(separator: "  ").count + 2
        let text = "OVERDUE \(due)"
        overdue = start..<(start + text.count)
        parts.append(text)
      } else {
        parts.append("due \(due)")
      }
    }
    if !row.tags.isEmpty { parts.append(row.tags.map { "#" + $0 }.joined(separator: " ")) }
    return (parts.joined(separator: "  "), overdue)
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    guard body.height > 0 else { return }
    // A short window drops the blank line above the list and the summary below it, so every
    // row of the body shows todos.
    let compact = body.height < 4
    let listTop = compact ? body.row : body.row + 1
    let listHeight = compact ? body.height : body.height - 2
    let rows = model?.rows ?? []
    if let filterLine, !compact {
      frame.draw(filterLine, row: body.row, width: body.width)
    }
    if rows.isEmpty {
      let filtered = model.map { $0.filters.search != "" || $0.filters.tag != nil } ?? false
      frame.draw(
        filtered ? "  No todo matches the filter." : "  No todos yet. Press a to add one.",
        row: listTop)
      return
    }
    let today = today()
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
      let (details, overdue) = Self.details(of: row, today: today)
      // The title gets what the details leave, but never less than half the row: the details
      // are cut first on a narrow window.
      let room = max(body.width - prefix.displayWidth, 0)
      let reserved = details.isEmpty ? 0 : min(details.displayWidth + 2, room / 2)
      let titleWidth = min(TerminalSafeText.pictured(row.title).displayWidth, room - reserved)
      let detailsWidth = details.isEmpty ? 0 : min(details.displayWidth + 2, room - titleWidth)
      frame.draw(prefix, row: listTop + line, column: body.column, width: body.width)
      frame.draw(
        row.title, row: listTop + line, column: body.column + prefix.displayWidth,
        width: titleWidth)
      if detailsWidth > 2 {
        let column = body.column + prefix.displayWidth + titleWidth
        frame.draw("  " + details, row: listTop + line, column: column, width: detailsWidth)
        if let overdue {
          // Only what shows of it: the details may be cut on a narrow window.
          let start = overdue.lowerBound + 2
          let end = min(overdue.upperBound + 2, detailsWidth)
          if start < end {
            frame.style(.alert, row: listTop + line, columns: (column + start)..<(column + end))
          }
        }
      }
    }
    guard !compact else { return }
    let position = (viewport.selection.flatMap { rows.map(\.id).firstIndex(of: $0) } ?? 0) + 1
    let summary = "  \(position) of \(rows.count) · \(model?.doneCount ?? 0) done"
    frame.draw(summary, row: body.row + body.height - 1)
  }
}
