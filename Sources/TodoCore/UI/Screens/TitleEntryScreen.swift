import Foundation
import Navigation
import StateStoreUI
import TitleEditorFeature

/// The `add` and `edit` screens, presented modally: a box with a one-line title field.
///
/// The title being typed is the screen's local state: it reaches the store only when Enter
/// saves it, and then dismisses the box; Escape dismisses it without saving. A blank title is
/// refused with the reason on the status line, and the box stays open.
@MainActor
final class TitleEntryScreen: TodoScreen {
  typealias Purpose = TitleEntryViewModel.Purpose

  let routeIdentifier: RouteElementIdentifier
  let isModal = true
  let purpose: Purpose
  private let controller: LocalStateScreenController<TitleEntryView, TodoDependencies>

  /// Creates the screen; an edit starts with the todo's current title.
  init(app: TodoTerminalApp, purpose: Purpose) {
    self.purpose = purpose
    let field: TextField
    switch purpose {
    case .add:
      routeIdentifier = "add"
      field = TextField()
    case .edit(let todo):
      routeIdentifier = "edit"
      field = TextField(todo.title)
    case .due(let todo):
      // The date screen has its own screen (DueDateScreen); this only names it.
      routeIdentifier = "due"
      field = TextField(todo.due?.description ?? "")
    }
    let identifier = routeIdentifier
    controller = LocalStateScreenController(
      view: TitleEntryView(), store: app.store,
      localState: TitleEntryViewModel.Entry(purpose: purpose, field: field)
    ) { view, controller in
      view.didEdit = { [weak controller] key in _ = controller?.localState.field.handle(key) }
      view.didSave = { [weak app] text in
        guard let app else { return }
        await Self.save(text, for: purpose, in: app, closing: identifier)
      }
      view.didCancel = { [weak app] in await app?.hide(identifier) }
    }
  }

  /// The title being typed.
  var field: TextField { controller.localState.field }

  func appear() { controller.appear() }
  func disappear() { controller.disappear() }
  var isVisible: Bool { controller.isVisible }

  var keyHints: [KeyHint] { [KeyHint("enter", "save"), KeyHint("esc", "cancel")] }

  var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
    [.hide(routeIdentifier): .dismissModally(behaviour: .soft)]
  }

  /// Saves `text` as what `purpose` asks for, then closes the box; a refusal keeps it open.
  private static func save(
    _ text: String, for purpose: Purpose, in app: TodoTerminalApp,
    closing identifier: RouteElementIdentifier
  ) async {
    let submitted: String?
    do {
      submitted = try await app.titleEditor.dispatch(SubmitTitle(text))
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
    case .due:
      // A date is not a title: DueDateScreen handles what is typed there.
      return
    }
    await app.hide(identifier)
  }

  func handle(_ key: Key) async {
    await controller.view.handle(key)
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    controller.view.draw(in: &frame)
  }
}
