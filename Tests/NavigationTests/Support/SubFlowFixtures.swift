import Navigation
import SideEffects
import StateStore

/// The sub-flow of the tests: a due-date picker, presented modally from `list` or pushed onto
/// `detail`, that may push a `month` screen of its own.
extension SubFlow where Result == Int {
  static let dueDate = SubFlow("due-date")
}

/// An app whose `list` presents the `due-date` picker (which pushes `month` and dismisses
/// itself), and pushes `detail`, which pushes its own `due-date`.
@MainActor
func makeSubFlowApp(tracker: ScreenTracker = ScreenTracker()) -> Navigator {
  let month = tracker.make("month")
  let picker = tracker.make("due-date") {
    [.show("month"): .push(month), .hide("due-date"): .dismissModally(behaviour: .soft)]
  }
  let pushedPicker = tracker.make("due-date")
  let detail = tracker.make("detail") {
    [.show("due-date"): .push(pushedPicker), .hide("due-date"): .pop]
  }
  let list = Screen(
    "list",
    [
      .show("due-date"): .presentModally(picker),
      .show("detail"): .push(detail),
      .hide("detail"): .pop,
      .show("settings"): .presentModally(tracker.make("settings")),
    ])
  return Navigator(root: list)
}

/// Waits until the navigator's route is `route`, without sleeping.
///
/// A route that never comes would wait forever: the suites that use it carry a time limit, so
/// that a regression fails instead of hanging.
@MainActor
func waitUntil(_ navigator: Navigator, shows route: Route) async {
  let updates = navigator.routeUpdates()
  if navigator.currentRoute == route { return }
  for await current in updates where current == route { return }
}

/// Asks for a due date from inside a side effect.
struct AskDueDate: ReturningSideEffect {
  func sideEffect(_ context: SideEffectContext<AppState, Dependencies>) async throws -> Int? {
    try await context.dispatch(ShowForResult(.dueDate))
  }
}
