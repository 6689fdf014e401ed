import Navigation
import TerminalKit

/// Drives the terminal UI without a terminal: feed keys, read the frame as text, check the route.
///
/// The harness runs the same ``TodoTerminalApp`` as `todo-cli ui`, with the same key decoder,
/// so a test sees exactly what a user would.
///
/// ```swift
/// let ui = try await TerminalUIHarness(storage: InMemoryTodoStorage())
/// await ui.press(.character("a"))
/// await ui.type("Buy milk")
/// await ui.press(.enter)
/// #expect(ui.route == ["list"])
/// #expect(ui.text.contains("[ ] 1  Buy milk"))
/// ```
@MainActor
final class TerminalUIHarness {
  /// The application under test.
  let app: TodoTerminalApp
  /// The size of the frames read.
  var width: Int
  /// The size of the frames read.
  var height: Int
  private var decoder = KeyDecoder()

  /// Starts the UI on `storage`, with the state it holds, at the given size.
  init(
    storage: any TodoStorage, width: Int = 60, height: Int = 16, clock: TodoClock = .system
  ) async throws {
    app = TodoTerminalApp(storage: storage, state: try await storage.load(), clock: clock)
    self.width = width
    self.height = height
  }

  /// Presses `keys` in order, as the terminal loop would, stopping once the UI has quit.
  func press(_ keys: Key...) async {
    for key in keys {
      guard app.exitCode == nil else { return }
      await app.handle(key)
    }
  }

  /// Types `text`, one character at a time.
  func type(_ text: String) async {
    for character in text { await press(.character(character)) }
  }

  /// Sends raw terminal bytes through the key decoder, as one read.
  func send(bytes: [UInt8]) async {
    for key in decoder.decode(bytes) { await press(key) }
  }

  /// Lets the UI look for changes stored elsewhere, as the terminal loop does a few times a
  /// second; returns whether it found any.
  @discardableResult
  func refresh() async -> Bool {
    await app.refresh()
  }

  /// The frame the UI draws now.
  var frame: Frame { app.frame(width: width, height: height) }

  /// The screen as text, without trailing spaces.
  var text: String { frame.text }

  /// The screen's lines, without trailing spaces.
  var lines: [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// The current route.
  var route: Route { app.route }

  /// The exit status once the UI has quit.
  var exitCode: Int32? { app.exitCode }

  /// The state the UI shows.
  var state: AppState { app.store.state }
}
