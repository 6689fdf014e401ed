import Foundation
import Navigation
import StateStoreUI
import TerminalKit
import TitleEditorFeature

/// The `add` and `edit` screens, presented modally: a box with a one-line title field, and the
/// ``SubFlow/addTitle`` or ``SubFlow/editTitle`` sub-flow.
///
/// The title being typed is the screen's local state. Enter checks it with the title editor
/// feature and finishes the sub-flow with it, which closes the box; the screen that showed the
/// box saves it, and shows the box again with that title if saving fails. Escape hides the box
/// without a result. A blank title is refused with the reason on the status line, and the box
/// stays open.
@MainActor
final class TitleEntryScreen: TodoScreen {
  typealias Purpose = TitleEntryViewModel.Purpose

  let routeIdentifier: RouteElementIdentifier
  let isModal = true
  let purpose: Purpose
  private let controller: LocalStateScreenController<TitleEntryView, TodoDependencies>

  /// Creates the screen, starting with `draft`, or else an empty field for an add and the
  /// todo's current title for an edit.
  ///
  /// - Throws: ``ScreenError/closed`` once the store is gone.
  init(stores: ScreenStores, purpose: Purpose, draft: String? = nil) throws(ScreenError) {
    guard let store = stores.root.store else { throw .closed }
    self.purpose = purpose
    let field: TextField
    let subFlow: SubFlow<String>
    switch purpose {
    case .add:
      subFlow = .addTitle
      field = TextField(draft ?? "")
    case .edit(let todo):
      subFlow = .editTitle
      field = TextField(draft ?? todo.title)
    case .due(let todo):
      // The date screen has its own screen (DueDateScreen); this only names it.
      subFlow = SubFlow("due")
      field = TextField(todo.due?.description ?? "")
    }
    routeIdentifier = subFlow.identifier
    controller = LocalStateScreenController(
      view: TitleEntryView(), store: store,
      localState: TitleEntryViewModel.Entry(purpose: purpose, field: field)
    ) { view, controller in
      view.didEdit = { [weak controller] key in _ = controller?.localState.field.handle(key) }
      view.didSave = { text in
        guard let title = await Self.checked(text, in: stores) else { return }
        await stores.navigate(Finish(subFlow, with: title))
      }
      view.didCancel = { await stores.navigate(Hide(subFlow.identifier)) }
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

  /// The title `text` names, checked by the title editor; `nil`, with the reason on the status
  /// line, when it is refused.
  private static func checked(_ text: String, in stores: ScreenStores) async -> String? {
    do {
      guard let title = try await stores.titleEditor.dispatch(SubmitTitle(text)) else {
        if let refusal = stores.titleEditor.state?.refusal { stores.show(status: refusal) }
        return nil
      }
      return title
    } catch {
      stores.show(status: "\(error)")
      return nil
    }
  }

  func handle(_ key: Key) async {
    await controller.view.handle(key)
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    controller.view.draw(in: &frame)
  }
}
