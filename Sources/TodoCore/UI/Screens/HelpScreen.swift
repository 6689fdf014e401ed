import Navigation
import StateStoreUI

/// Lists the keys of the screen it was opened from, presented modally; `q` or Escape closes it.
@MainActor
final class HelpScreen: TodoScreen {
  let routeIdentifier: RouteElementIdentifier = "help"
  let isModal = true
  private let controller: LocalStateScreenController<HelpView, TodoDependencies>

  /// Creates the help for `screenBelow`'s `entries`.
  init(app: TodoTerminalApp, entries: [KeyHint], of screenBelow: RouteElementIdentifier) {
    controller = LocalStateScreenController(
      view: HelpView(), store: app.store,
      localState: HelpViewModel.Content(entries: entries, screenBelow: screenBelow)
    ) { view, _ in
      view.didClose = { [weak app] in await app?.hide("help") }
    }
  }

  func appear() { controller.appear() }
  func disappear() { controller.disappear() }
  var isVisible: Bool { controller.isVisible }

  var keyHints: [KeyHint] { [KeyHint("q/esc", "close")] }

  var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
    [.hide("help"): .dismissModally(behaviour: .soft)]
  }

  func handle(_ key: Key) async {
    await controller.view.handle(key)
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    controller.view.draw(in: &frame)
  }
}
