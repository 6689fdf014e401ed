import Foundation
import Navigation
import TitleEditorFeature

/// The `add` and `edit` screens, presented modally: a box with a one-line title field.
///
/// Enter saves through the store and dismisses the box; Escape dismisses it without saving.
/// A blank title is refused with the reason on the status line, and the box stays open.
@MainActor
final class TitleEntryScreen: TodoScreen {
  /// What the entered title is for.
  enum Purpose {
    /// A new todo.
    case add
    /// A new title for this todo.
    case edit(Todo)
  }

  let routeIdentifier: RouteElementIdentifier
  let isModal = true
  let purpose: Purpose
  private weak var app: TodoTerminalApp?
  /// The title being typed.
  private(set) var field: TextField

  /// Creates the screen; an edit starts with the todo's current title.
  init(app: TodoTerminalApp, purpose: Purpose) {
    self.app = app
    self.purpose = purpose
    switch purpose {
    case .add:
      routeIdentifier = "add"
      field = TextField()
    case .edit(let todo):
      routeIdentifier = "edit"
      field = TextField(todo.title)
    }
  }

  var keyHints: [KeyHint] { [KeyHint("enter", "save"), KeyHint("esc", "cancel")] }

  var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
    [.hide(routeIdentifier): .dismissModally(behaviour: .soft)]
  }

  func handle(_ key: Key) async {
    guard let app else { return }
    switch key {
    case .enter:
      let submitted: String?
      do {
        submitted = try await app.titleEditor.dispatch(SubmitTitle(field.text))
      } catch {
        app.status = "\(error)"
        return
      }
      guard let title = submitted else {
        app.status = app.titleEditor.state.refusal
        return
      }
      switch purpose {
      case .add:
        guard await app.save(AddTodo(title: title)) else { return }
      case .edit(let todo):
        if title != todo.title {
          guard await app.save(EditTitle(id: todo.id, title: title)) else { return }
        }
      }
      await app.hide(routeIdentifier)
    case .escape:
      await app.hide(routeIdentifier)
    default:
      _ = field.handle(key)
    }
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    let title: String
    switch purpose {
    case .add: title = "Add a todo"
    case .edit(let todo): title = "Edit todo \(todo.id)"
    }
    let boxWidth = min(max(frame.width - 8, 20), 70)
    // The columns inside the border, less the space before the text and the one kept free for
    // the cursor at the end; a narrow window drops the label to keep room for the title.
    let room = min(boxWidth, frame.width - 2) - 2
    let label = room - 7 >= 4 ? "Title: " : ""
    let visible = field.visible(inWidth: room - label.count)
    let area = frame.drawBox(
      title: title, lines: [label + visible.text], minimumWidth: boxWidth - 2)
    guard area.height > 0 else { return }
    let column = area.column + label.count + visible.cursorColumn
    frame.cursor = Frame.Position(
      row: area.row, column: min(column, area.column + area.width - 1, frame.width - 1))
  }
}
