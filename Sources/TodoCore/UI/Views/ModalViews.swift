import StateStoreUI
import TerminalKit

/// The `confirm` box: `y` answers delete, `n` keep, and Escape closes it without an answer.
@MainActor
final class ConfirmView: ModellableViewWithLocalState {
  var model: ConfirmViewModel?
  /// Answers: delete the todo with this id.
  var didConfirm: @MainActor (Int) async -> Void = { _ in }
  /// Answers: keep the todo.
  var didDecline: @MainActor () async -> Void = {}
  /// Closes the box without an answer.
  var didCancel: @MainActor () async -> Void = {}

  func update(oldModel: ConfirmViewModel?) {
    // Drawn from `model` with the next frame.
  }

  func handle(_ key: Key) async {
    guard let todo = model?.todo else { return }
    switch key {
    case .character("y"), .character("Y"): await didConfirm(todo.id)
    case .character("n"), .character("N"): await didDecline()
    case .escape: await didCancel()
    default: break
    }
  }

  func draw(in frame: inout Frame) {
    guard let todo = model?.todo else { return }
    let title = TerminalSafeText.pictured(todo.title).truncated(toWidth: max(frame.width - 30, 8))
    frame.drawBox(
      title: "Delete", lines: ["Delete todo \(todo.id) “\(title)”?", "", "y: delete   n: keep"],
      minimumWidth: 24)
  }
}

/// The `help` box: the keys of the screen below; `q` or Escape closes it.
@MainActor
final class HelpView: ModellableViewWithLocalState {
  var model: HelpViewModel?
  /// Closes the box.
  var didClose: @MainActor () async -> Void = {}

  func update(oldModel: HelpViewModel?) {
    // Drawn from `model` with the next frame.
  }

  func handle(_ key: Key) async {
    switch key {
    case .character("q"), .escape: await didClose()
    default: break
    }
  }

  func draw(in frame: inout Frame) {
    guard let content = model?.content else { return }
    frame.drawBox(
      title: "Keys: \(content.screenBelow)", lines: KeyHint.helpLines(content.entries))
  }
}

/// The `add` and `edit` boxes: a one-line title field.
@MainActor
final class TitleEntryView: ModellableViewWithLocalState {
  var model: TitleEntryViewModel?
  /// Edits the field with a key.
  var didEdit: @MainActor (Key) -> Void = { _ in }
  /// Saves the typed title.
  var didSave: @MainActor (String) async -> Void = { _ in }
  /// Closes the box without saving.
  var didCancel: @MainActor () async -> Void = {}

  func update(oldModel: TitleEntryViewModel?) {
    // Drawn from `model` with the next frame.
  }

  func handle(_ key: Key) async {
    switch key {
    case .enter: await didSave(model?.field.text ?? "")
    case .escape: await didCancel()
    default: didEdit(key)
    }
  }

  func draw(in frame: inout Frame) {
    guard let model else { return }
    let boxWidth = min(max(frame.width - 8, 20), 70)
    // The columns inside the border, less the space before the text and the one kept free for
    // the cursor at the end; a narrow window drops the label to keep room for the title.
    let room = min(boxWidth, frame.width - 2) - 2
    let label = room - model.label.count >= 4 ? model.label : ""
    let visible = model.field.visible(inWidth: room - label.count)
    let area = frame.drawBox(
      title: model.boxTitle, lines: [label + visible.text], minimumWidth: boxWidth - 2)
    guard area.height > 0 else { return }
    let column = area.column + label.count + visible.cursorColumn
    frame.cursor = Frame.Position(
      row: area.row, column: min(column, area.column + area.width - 1, frame.width - 1))
  }
}
