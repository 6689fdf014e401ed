import Navigation
import StateStoreUI
import TodoDetailFeature

/// The date screen, presented modally over a todo's detail: type `YYYY-MM-DD`, `today`,
/// `tomorrow`, `+3d`, `+2w` or `none`, and Enter hands the date to whoever opened the screen.
///
/// The screen does not change the todo itself: the detail feature's `SubmitDate` resolves what
/// was typed against the clock's today, and the screen passes the calendar date to `onChoose`,
/// then closes. That is the shape of a
/// sub-flow that returns its result to its caller, so it can become one without changing what
/// the caller does with the date. A text that names no date keeps the screen open, with the
/// reason on the status line; Escape closes it without a result.
@MainActor
final class DueDateScreen: TodoScreen {
  let routeIdentifier: RouteElementIdentifier = "due"
  let isModal = true
  private let controller: LocalStateScreenController<TitleEntryView, TodoDependencies>

  /// Creates the screen for `todo`, starting with its due date; `onChoose` receives the date
  /// chosen (`nil` for none).
  init(
    app: TodoTerminalApp, todo: Todo,
    onChoose: @escaping @MainActor (CalendarDate?) async -> Bool
  ) {
    controller = LocalStateScreenController(
      view: TitleEntryView(), store: app.store,
      localState: TitleEntryViewModel.Entry(
        purpose: .due(todo), field: TextField(todo.due?.description ?? ""))
    ) { view, controller in
      view.didEdit = { [weak controller] key in _ = controller?.localState.field.handle(key) }
      view.didSave = { [weak app] text in
        guard let app else { return }
        let chosen: CalendarDate?
        do {
          switch try await app.detail.dispatch(SubmitDate(text)) {
          case .date(let date): chosen = CalendarDate(date)
          case .none: chosen = nil
          case .refused(let reason):
            app.status = reason
            return
          }
        } catch {
          app.status = "\(error)"
          return
        }
        guard await onChoose(chosen) else { return }
        await app.hide("due")
      }
      view.didCancel = { [weak app] in await app?.hide("due") }
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
