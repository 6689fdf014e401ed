import Navigation

/// A screen whose routing table a test sets freely.
@MainActor
final class Screen: RoutableWithConfiguration {
  let routeIdentifier: RouteElementIdentifier
  var table: [NavigationRequest: NavigationInstruction]
  /// The context its factory received.
  let context: (any Sendable)?

  init(
    _ identifier: RouteElementIdentifier, context: (any Sendable)? = nil,
    _ table: [NavigationRequest: NavigationInstruction] = [:]
  ) {
    self.routeIdentifier = identifier
    self.context = context
    self.table = table
  }

  var navigationConfiguration: [NavigationRequest: NavigationInstruction] { table }
}

/// Keeps weak references to every screen a factory built, to check that they are released.
@MainActor
final class ScreenTracker {
  private var built: [WeakScreen] = []

  /// A factory that builds a screen `identifier` with `table`, and tracks it.
  func make(
    _ identifier: RouteElementIdentifier,
    _ table: @escaping @MainActor () -> [NavigationRequest: NavigationInstruction] = { [:] }
  ) -> RoutableFactory {
    { [self] context in
      let screen = Screen(identifier, context: context, table())
      built.append(WeakScreen(screen))
      return screen
    }
  }

  /// The identifiers of tracked screens that are still alive.
  var alive: [RouteElementIdentifier] {
    built.compactMap { $0.screen?.routeIdentifier }
  }
}

@MainActor
private final class WeakScreen {
  weak var screen: Screen?
  init(_ screen: Screen) { self.screen = screen }
}

/// The app used by most tests.
///
/// - `list` (root): pushes `detail`, presents `settings`, pops `detail`, pushes `help`.
/// - `detail`: pushes `comments`, pops `comments`, presents `editor`.
/// - `settings` (modal): pushes `about`, presents `confirm`, dismisses itself softly, pops
///   `about`.
/// - `editor`, `confirm` (modals): dismiss themselves softly.
@MainActor
func makeApp(tracker: ScreenTracker = ScreenTracker()) -> Navigator {
  let comments = tracker.make("comments")
  let editor = tracker.make("editor") { [.hide("editor"): .dismissModally(behaviour: .soft)] }
  let detail = tracker.make("detail") {
    [
      .show("comments"): .push(comments),
      .hide("comments"): .pop,
      .show("editor"): .presentModally(editor),
    ]
  }
  let about = tracker.make("about")
  let confirm = tracker.make("confirm") {
    [.hide("confirm"): .dismissModally(behaviour: .soft)]
  }
  let settings = tracker.make("settings") {
    [
      .show("about"): .push(about),
      .hide("about"): .pop,
      .show("confirm"): .presentModally(confirm),
      .hide("settings"): .dismissModally(behaviour: .soft),
    ]
  }
  let help = tracker.make("help")
  let list = Screen(
    "list",
    [
      .show("detail"): .push(detail),
      .hide("detail"): .pop,
      .show("settings"): .presentModally(settings),
      .show("help"): .push(help),
    ])
  return Navigator(root: list)
}

extension Navigator {
  /// The identifiers of each modal level.
  var levelRoutes: [Route] {
    levels.map { level in level.map(\.routeIdentifier) }
  }
}
