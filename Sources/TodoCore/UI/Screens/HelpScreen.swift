import Navigation
import StateStoreUI
import TerminalKit

/// Lists the keys of the screen it was opened from, presented modally; `q` or Escape hides it.
@MainActor
final class HelpScreen: TodoScreen {
  let routeIdentifier: RouteElementIdentifier = "help"
  let isModal = true
  private let controller: LocalStateScreenController<HelpView, TodoDependencies>

  /// Creates the help for `screenBelow`'s `entries`.
  ///
  /// - Throws: ``ScreenError/closed`` once the store is gone.
  init(stores: ScreenStores, entries: [KeyHint], of screenBelow: RouteElementIdentifier)
    throws(ScreenError)
  {
    guard let store = stores.root.store else { throw .closed }
    controller = LocalStateScreenController(
      view: HelpView(), store: store,
      localState: HelpViewModel.Content(entries: entries, screenBelow: screenBelow)
    ) { view, _ in
      view.didClose = { await stores.navigate(Hide("help")) }
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
