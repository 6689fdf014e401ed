import Navigation
import StateStore
import Testing

/// A tab bar: a container that switches branch in one step.
@MainActor
private final class Tabs: RoutableWithConfiguration {
  let routeIdentifier: RouteElementIdentifier = "tabs"
  let tracker: ScreenTracker
  private(set) var changes: [String] = []

  init(tracker: ScreenTracker) { self.tracker = tracker }

  var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
    [.show("inbox"): .push(tracker.make("inbox")), .show("sent"): .push(tracker.make("sent"))]
  }

  func change(
    from old: RouteElementIdentifier, to new: RouteElementIdentifier, context: (any Sendable)?
  ) throws -> (any Routable)? {
    changes.append("\(old)->\(new)")
    return try tracker.make(new)(context)
  }
}

/// What an optional custom handler was asked, and whether it accepts.
@MainActor
private final class DeclineLog {
  var asked: [String] = []
  var accept = false
}

@MainActor
@Suite("Tempura parity")
struct ParityTests {
  @Test(".optionalCustom may decline, and resolution goes on down the route")
  func optionalCustomDeclines() async throws {
    let log = DeclineLog()
    let detail = Screen(
      "detail",
      [
        .show("help"): .optionalCustom { navigation in
          log.asked.append("detail")
          guard log.accept else { return false }
          navigation.push(Screen("help"))
          return true
        }
      ])
    let list = Screen(
      "list",
      [
        .show("detail"): .push { _ in detail },
        .show("help"): .presentModally { _ in Screen("help") },
        .hide("help"): .dismissModally(behaviour: .soft),
      ])
    let navigator = Navigator(root: list)
    try await navigator.show("detail")
    try await navigator.show("help")
    #expect(log.asked == ["detail"])
    #expect(navigator.levelRoutes == [["list", "detail"], ["help"]])
    try await navigator.hide("help")
    log.accept = true
    try await navigator.show("help")
    #expect(log.asked == ["detail", "detail"])
    #expect(navigator.levelRoutes == [["list", "detail", "help"]])
  }

  @Test("Show with several identifiers shows each in turn, in one request")
  func severalIdentifiers() async throws {
    let navigator = makeApp()
    let store = Store(initialState: AppState(), dependencies: Dependencies(navigator: navigator))
    try await store.dispatch(Show(["detail", "comments", "editor"]))
    #expect(navigator.levelRoutes == [["list", "detail", "comments"], ["editor"]])
    #expect(store.state.route == ["list", "detail", "comments", "editor"])
    #expect(Show(["detail", "comments"]).description == #"Show(["detail", "comments"])"#)
    let error = try await #require(throws: NavigationError.self) {
      try await store.dispatch(Show(["nowhere", "detail"]))
    }
    #expect(error.kind == .unhandled)
  }

  @Test("a container's change(from:to:) switches branch in one step")
  func changeBranch() async throws {
    let tracker = ScreenTracker()
    let tabs = Tabs(tracker: tracker)
    let navigator = Navigator(root: tabs)
    try await navigator.navigate(to: ["tabs", "inbox"])
    var steps: [Route] = []
    let token = navigator.observeRoute { _, new in steps.append(new) }
    try await navigator.navigate(to: ["tabs", "sent"], contexts: ["sent": 4])
    token.cancel()
    #expect(steps == [["tabs", "sent"]])
    #expect(tabs.changes == ["inbox->sent"])
    #expect(tracker.alive == ["sent"])
    #expect(navigator.routeContexts.last as? Int == 4)
  }

  @Test("a routable that is no container lets Navigate hide and show as before")
  func noContainer() async throws {
    let navigator = makeApp()
    try await navigator.navigate(to: ["list", "detail"])
    var steps: [Route] = []
    let token = navigator.observeRoute { _, new in steps.append(new) }
    try await navigator.navigate(to: ["list", "help"])
    token.cancel()
    #expect(steps == [["list"], ["list", "help"]])
  }

  @Test("changing the root releases the old root's routables and mirrors the new route")
  func changeRoot() async throws {
    let tracker = ScreenTracker()
    weak var oldRoot: Screen?
    let navigator: Navigator
    do {
      let login = Screen("login", [.show("help"): .push(tracker.make("help"))])
      oldRoot = login
      navigator = Navigator(root: login)
    }
    let store = Store(initialState: AppState(), dependencies: Dependencies(navigator: navigator))
    try await store.dispatch(Show("help"))
    try await navigator.changeRoot(to: Screen("home"))
    #expect(oldRoot == nil)
    #expect(tracker.alive.isEmpty)
    #expect(navigator.root.routeIdentifier == "home")
    #expect(navigator.currentRoute == ["home"])
    #expect(store.state.route == ["home"])
  }

  @Test("ChangeRoot and a Navigate to another root build it with the root factories")
  func rootFactories() async throws {
    let navigator = Navigator(
      root: Screen("login"),
      rootFactories: [
        "home": { context in
          Screen("home", context: context, [.show("profile"): .push { _ in Screen("profile") }])
        }
      ])
    let store = Store(initialState: AppState(), dependencies: Dependencies(navigator: navigator))
    try await store.dispatch(ChangeRoot(to: "home", context: 1))
    #expect(navigator.currentRoute == ["home"])
    #expect((navigator.root as? Screen)?.context as? Int == 1)
    try await navigator.changeRoot(to: Screen("login"))
    try await store.dispatch(Navigate(to: ["home", "profile"]))
    #expect(navigator.currentRoute == ["home", "profile"])
    let error = try await #require(throws: NavigationError.self) {
      try await store.dispatch(ChangeRoot(to: "nowhere"))
    }
    #expect(error.kind == .noRootFactory)
  }

  @Test("a navigator made before its root answers nothing until the root is installed")
  func placeholderRoot() async throws {
    let navigator = Navigator()
    let store = Store(initialState: AppState(), dependencies: Dependencies(navigator: navigator))
    #expect(navigator.currentRoute == ["root"])
    await #expect(throws: NavigationError.self) { try await store.dispatch(Show("detail")) }
    try await navigator.changeRoot(
      to: Screen("list", [.show("detail"): .push { _ in Screen("detail") }]))
    try await store.dispatch(Show("detail"))
    #expect(store.state.route == ["list", "detail"])
  }
}
