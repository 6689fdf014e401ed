import StateStoreUI
import TerminalKit

/// What the `detail` screen draws: one todo's full title, wrapped, whether it is done, its
/// priority, due date and tags.
@MainActor
final class DetailView: ModellableViewWithLocalState {
  var model: DetailViewModel?

  /// Asks to edit the todo with this id.
  var didAskToEdit: @MainActor (Int) async -> Void = { _ in }
  /// Toggles this todo.
  var didToggle: @MainActor (Todo) async -> Void = { _ in }
  /// Deletes the todo with this id.
  var didDelete: @MainActor (Int) async -> Void = { _ in }
  /// Goes back to the list.
  var didGoBack: @MainActor () async -> Void = {}
  /// Asks for help.
  var didAskForHelp: @MainActor () async -> Void = {}
  /// Sets this todo's priority to the next one: none, high, medium, low, none again.
  var didCyclePriority: @MainActor (Todo) async -> Void = { _ in }
  /// Asks for the date screen for the todo with this id.
  var didAskForDueDate: @MainActor (Int) async -> Void = { _ in }
  /// The day it is, to tell an overdue todo.
  var today: @MainActor () -> CalendarDate = { .earliest }

  func update(oldModel: DetailViewModel?) {
    // Drawn from `model` on the next frame.
  }

  func handle(_ key: Key) async {
    guard let model else { return }
    switch key {
    case .character("e"):
      guard model.todo != nil else { return }
      await didAskToEdit(model.todoID)
    case .space:
      guard let todo = model.todo else { return }
      await didToggle(todo)
    case .character("d"):
      guard model.todo != nil else { return }
      await didDelete(model.todoID)
    case .character("q"), .escape: await didGoBack()
    case .character("?"): await didAskForHelp()
    case .character("p"):
      guard let todo = model.todo else { return }
      await didCyclePriority(todo)
    case .character("D"):
      guard model.todo != nil else { return }
      await didAskForDueDate(model.todoID)
    default: break
    }
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    guard let model else { return }
    guard let todo = model.todo else {
      frame.draw(
        "  Todo \(model.todoID) no longer exists. Press q to go back.", row: body.row + 1)
      return
    }
    guard body.height >= 8 else {
      // Too short for the labelled layout: the todo on as many lines as there are.
      let text = "\(todo.done ? "[x]" : "[ ]") \(todo.id)  \(TerminalSafeText.pictured(todo.title))"
      let lines = text.wrapped(toWidth: body.width)
      for (index, line) in lines.prefix(body.height).enumerated() {
        let cut = index == body.height - 1 && lines.count > body.height
        frame.draw(cut ? line + "…" : line, row: body.row + index)
      }
      return
    }
    let labelWidth = 12
    frame.draw("  Todo", row: body.row + 1)
    frame.draw(String(todo.id), row: body.row + 1, column: labelWidth)
    frame.draw("  Status", row: body.row + 2)
    frame.draw(todo.done ? "done" : "open", row: body.row + 2, column: labelWidth)
    let valueWidth = max(body.width - labelWidth, 1)
    frame.draw("  Priority", row: body.row + 3)
    frame.draw(todo.priority?.rawValue ?? "none", row: body.row + 3, column: labelWidth)
    frame.draw("  Due", row: body.row + 4)
    let due = todo.due.map { $0 < today() ? "\($0) OVERDUE" : "\($0)" } ?? "none"
    frame.draw(due, row: body.row + 4, column: labelWidth)
    frame.draw("  Tags", row: body.row + 5)
    let tags = todo.tags.isEmpty ? "none" : todo.tags.map { "#" + $0 }.joined(separator: " ")
    frame.draw(tags, row: body.row + 5, column: labelWidth, width: valueWidth)
    frame.draw("  Title", row: body.row + 6)
    let lines = TerminalSafeText.pictured(todo.title).wrapped(toWidth: valueWidth)
    let room = max(body.height - 7, 0)
    for (index, line) in lines.prefix(room).enumerated() {
      let text = index == room - 1 && lines.count > room ? line + "…" : line
      frame.draw(text, row: body.row + 6 + index, column: labelWidth)
    }
  }
}
