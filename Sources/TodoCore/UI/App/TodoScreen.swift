import Navigation
import TerminalKit

/// A screen of the terminal UI: a routable with a routing table that draws itself and
/// reacts to keys.
///
/// Each screen owns a screen controller and its view, a `ModellableView` (or one with local
/// state); the application calls ``appear()`` and ``disappear()`` as the screen starts and stops
/// being drawn, so a screen hidden under a pushed one does not render.
///
/// A screen never decides what is on the route: its keys dispatch `Show` and `Hide`, and the
/// navigator resolves them with the tables of the screens on the route.
@MainActor
protocol TodoScreen: RoutableWithConfiguration {
  /// Whether the screen shows as a box over the screen below it rather than filling the body.
  var isModal: Bool { get }
  /// The keys shown on the bottom line while this screen is in front.
  var keyHints: [KeyHint] { get }
  /// The keys the help screen lists when it is opened over this screen.
  var helpEntries: [KeyHint] { get }

  /// Draws the screen: a full screen into `body`, a modal as a box anywhere on `frame`.
  func draw(in frame: inout Frame, body: Frame.Area)

  /// Reacts to a key while the screen is in front.
  func handle(_ key: Key) async

  /// Connects the screen's view to the store: the screen is drawn from now on.
  func appear()

  /// Disconnects the screen's view: the screen is no longer drawn.
  func disappear()

  /// Whether the screen is drawn, that is, between ``appear()`` and ``disappear()``.
  var isVisible: Bool { get }
}

extension TodoScreen {
  var helpEntries: [KeyHint] { keyHints }
}
