import Navigation

/// Lists the keys of the screen it was opened from, presented modally; `q` or Escape closes it.
@MainActor
final class HelpScreen: TodoScreen {
  let routeIdentifier: RouteElementIdentifier = "help"
  let isModal = true
  /// The keys listed.
  let entries: [KeyHint]
  /// The route identifier of the screen whose keys are listed.
  let screenBelow: RouteElementIdentifier
  private weak var app: TodoTerminalApp?

  /// Creates the help for `screenBelow`'s `entries`.
  init(app: TodoTerminalApp, entries: [KeyHint], of screenBelow: RouteElementIdentifier) {
    self.app = app
    self.entries = entries
    self.screenBelow = screenBelow
  }

  var keyHints: [KeyHint] { [KeyHint("q/esc", "close")] }

  var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
    [.hide("help"): .dismissModally(behaviour: .soft)]
  }

  func handle(_ key: Key) async {
    switch key {
    case .character("q"), .escape: await app?.hide("help")
    default: break
    }
  }

  func draw(in frame: inout Frame, body: Frame.Area) {
    let keyWidth = entries.map(\.keys.displayWidth).max() ?? 0
    let lines = entries.map { entry in
      entry.keys + String(repeating: " ", count: keyWidth - entry.keys.displayWidth + 3)
        + entry.action
    }
    frame.drawBox(title: "Keys: \(screenBelow)", lines: lines)
  }
}
