import Navigation
import StateStoreUI
import TerminalKit
import TodoDetailFeature

/// The date screen, presented modally over a todo's detail: the ``SubFlow/dueDate`` sub-flow.
///
/// Type `YYYY-MM-DD`, `today`, `tomorrow`, `+3d`, `+2w` or `none`, and Enter finishes it with the
/// date chosen.
///
/// The screen does not change the todo itself: the detail feature's `SubmitDate` resolves what
/// was typed against the clock's today, and the screen hands the calendar date back to the
/// detail screen as the sub-flow's result; the detail saves it. A text that names no date keeps
/// the screen open, with the reason on the status line; Escape hides it without a result.
@MainActor
final class DueDateScreen: TodoScreen {
  let routeIdentifier: RouteElementIdentifier = "due"
  let isModal = true
  private let controller: LocalStateScreenController<TitleEntryView, TodoDependencies>

  /// Creates the screen for `todo`, starting with its due date.
  ///
  /// - Throws: ``ScreenError/closed`` once the store is gone.
  init(stores: ScreenStores, todo: Todo) throws(ScreenError) {
    guard let store = stores.root.store else { throw .closed }
    controller = LocalStateScreenController(
      view: TitleEntryView(), store: store,
      localState: TitleEntryViewModel.Entry(
        purpose: .due(todo), field: TextField(todo.due?.description ?? ""))
    ) { view, controller in
      view.didEdit = { [weak controller] key in _ = controller?.localState.field.handle(key) }
      view.didSave = { text in
        guard let choice = await Self.choice(text, in: stores) else { return }
        await stores.navigate(Finish(.dueDate, with: choice))
      }
      view.didCancel = { await stores.navigate(Hide("due")) }
    }
  }

  /// The date `text` names, resolved by the detail feature; `nil`, with the reason on the
  /// status line, when it names none.
  private static func choice(_ text: String, in stores: ScreenStores) async -> DueDateChoice? {
    do {
      switch try await stores.detail.dispatch(SubmitDate(text)) {
      case .date(let date): return DueDateChoice(due: CalendarDate(date))
      case .none: return DueDateChoice(due: nil)
      case .refused(let reason):
        stores.show(status: reason)
        return nil
      }
    } catch {
      stores.show(status: "\(error)")
      return nil
    }
  }

  /// The date being typed.
  var field: TextField { controller.localState.field }

  func appear() { controller.appear() }
  func disappear() { controller.disappear() }
  var isVisible: Bool { controller.isVisible }

  var keyHints: [KeyHint] { [KeyHint("enter", "set"), KeyHint("esc", "cancel")] }

  var helpEntries: [KeyHint] {
    [
      KeyHint("YYYY-MM-DD", "a date"), KeyHint("today, tomorrow", "relative days"),
      KeyHint("+3d, +2w", "days or weeks from today"), KeyHint("none", "no due date"),
      KeyHint("enter", "set"), KeyHint("esc", "cancel"),
    ]
  }

  var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
    [.hide("due"): .dismissModally(behaviour: .soft)]
  }

  func handle(_ key: Key) async {
    await controller.view.handle(key)
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    controller.view.draw(in: &frame)
  }
}
