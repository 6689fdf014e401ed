import SideEffects
import StateStoreTesting
import Synchronization
import Testing

// The handler recipe of the article "Wiring an app" (section 6): a tap changes the state
// synchronously and launches only the I/O, which carries the value it sends. The racy handler
// the trial wrote, an effect that reads `await context.state` to decide and flips afterwards,
// is here too, so that the test shows it catches the race.

struct StarState: State, Equatable {
  var favourites: Set<String> = []
}

struct FlipStar: StateUpdater, Equatable {
  let name: String
  func updateState(_ state: inout StarState) {
    if state.favourites.remove(name) == nil { state.favourites.insert(name) }
  }
}

/// A server that answers after 100 ms of the test's clock, and remembers what it was sent.
final class StarServer: Sendable {
  let clock: TestClock
  private let requests = Mutex<[String]>([])
  init(clock: TestClock) { self.clock = clock }

  /// The requests received, in order: `"star swift-format"`.
  var received: [String] { requests.withLock { $0 } }

  func setStarred(_ starred: Bool, _ name: String) async throws {
    requests.withLock { $0.append("\(starred ? "star" : "unstar") \(name)") }
    try await clock.sleep(for: .milliseconds(100))
  }
}

struct StarDependencies: Sendable {
  let server: StarServer
  let clock: TestClock
}

/// The recipe's I/O: sends the value read when the user tapped, never reading the state.
struct SendStar: SideEffect {
  let name: String
  let starred: Bool
  var cancellationID: CancellationID? { "star \(name)" }
  var cancellationPolicy: CancellationPolicy { .enqueue }

  func sideEffect(_ context: SideEffectContext<StarState, StarDependencies>) async throws {
    try await context.dependencies.server.setStarred(starred, name)
  }
}

/// The racy effect: it decides from `await context.state`, which it reads only once it runs.
struct ToggleStarRacily: SideEffect {
  let name: String

  func sideEffect(_ context: SideEffectContext<StarState, StarDependencies>) async throws {
    let starred = await context.state.favourites.contains(name)
    try await context.dependencies.server.setStarred(!starred, name)
    await context.dispatch(FlipStar(name: name))
  }
}

/// A screen with a star on each repository.
@MainActor
struct StarScreen {
  let store: StoreHandle<StarState, StarDependencies>

  /// The recipe: the state changes now, and only the request is an effect.
  func userTappedStar(_ name: String) {
    store.dispatch(FlipStar(name: name))
    guard let starred = store.state?.favourites.contains(name) else { return }
    _ = store.launch(SendStar(name: name, starred: starred))
  }

  /// What the trial wrote: the tap only launches an effect that reads the state later.
  func userTappedStarRacily(_ name: String) {
    _ = store.launch(ToggleStarRacily(name: name))
  }
}

@MainActor
@Suite("The handler recipe: state first, then only the I/O", .timeLimit(.minutes(5)))
struct HandlerRecipeTests {
  /// Taps the star of a starred repository twice, with `tap`, lets the requests finish, and
  /// returns what the server received and the state the app ends with.
  func doubleTap(
    _ tap: (StarScreen, String) -> Void
  ) async -> (requests: [String], favourites: Set<String>) {
    let clock = TestClock()
    let server = StarServer(clock: clock)
    let store = TestStore(
      initialState: StarState(favourites: ["swift-format"]),
      dependencies: StarDependencies(server: server, clock: clock))
    // Only what the server received and the final state matter here, not each updater.
    store.exhaustivity = .off
    let screen = StarScreen(store: store.store.handle)
    tap(screen, "swift-format")
    tap(screen, "swift-format")
    // Waits until every request is asleep on the clock (or queued behind one), then lets
    // them all answer.
    await clock.advance(by: .milliseconds(200))
    await store.finish()
    return (server.received, store.state.favourites)
  }

  @Test("a double tap sends one request per tap, in order, and ends as the server does")
  func recipeSendsOneRequestPerTap() async {
    let (requests, favourites) = await doubleTap { $0.userTappedStar($1) }
    #expect(requests == ["unstar swift-format", "star swift-format"])
    #expect(favourites == ["swift-format"])
  }

  @Test("the racy handler sends two unstars for the same double tap: what the check catches")
  func racyHandlerSendsTwoUnstars() async {
    let (requests, favourites) = await doubleTap { $0.userTappedStarRacily($1) }
    // Both effects read "starred" before either flipped it: the server now says unstarred,
    // while the app shows the star.
    #expect(requests == ["unstar swift-format", "unstar swift-format"])
    #expect(favourites == ["swift-format"])
  }
}
