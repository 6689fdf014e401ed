import Navigation
import StateStore
import Testing

@MainActor
@Suite("Navigate(to:)")
struct NavigateTests {
  @Test("hides down to the common prefix, topmost first, then shows each missing element")
  func diff() async throws {
    let navigator = makeApp()
    try await navigator.navigate(to: ["list", "detail", "comments"])
    var steps: [Route] = []
    let token = navigator.observeRoute { _, new in steps.append(new) }
    try await navigator.navigate(to: ["list", "settings", "about"])
    #expect(
      steps == [
        ["list", "detail"], ["list"], ["list", "settings"], ["list", "settings", "about"],
      ])
    #expect(navigator.levelRoutes == [["list"], ["settings", "about"]])
    token.cancel()
  }

  @Test("keeps the common prefix")
  func keepsPrefix() async throws {
    let navigator = makeApp()
    try await navigator.navigate(to: ["list", "detail", "comments"])
    let detail = navigator.visibleRoutables[1]
    try await navigator.navigate(to: ["list", "detail", "editor"])
    #expect(navigator.currentRoute == ["list", "detail", "editor"])
    #expect(navigator.visibleRoutables[1] === detail)
  }

  @Test("navigating to the current route does nothing")
  func currentRoute() async throws {
    let navigator = makeApp()
    try await navigator.navigate(to: ["list", "detail"])
    var changes = 0
    let token = navigator.observeRoute { _, _ in changes += 1 }
    try await navigator.navigate(to: ["list", "detail"])
    #expect(changes == 0)
    token.cancel()
  }

  @Test("after a failed step, the route is what the completed steps left")
  func partialFailure() async throws {
    let navigator = makeApp()
    try await navigator.navigate(to: ["list", "settings"])
    let error = try await #require(throws: NavigationError.self) {
      try await navigator.navigate(to: ["list", "detail", "missing", "comments"])
    }
    #expect(error.kind == .unhandled)
    #expect(error.request == #"Show("missing")"#)
    #expect(error.navigationTarget == ["list", "detail", "missing", "comments"])
    #expect(error.route == ["list", "detail"])
    #expect(navigator.currentRoute == ["list", "detail"])
    #expect(error.description.contains("Navigate(to: [list, detail, missing, comments])"))
  }

  @Test("a route that does not start at the root is refused")
  func invalidTarget() async throws {
    let navigator = makeApp()
    for target: Route in [[], ["detail"], ["settings", "list"]] {
      let error = try await #require(throws: NavigationError.self) {
        try await navigator.navigate(to: target)
      }
      #expect(error.kind == .invalidTarget)
    }
    #expect(navigator.currentRoute == ["list"])
  }

  @Test("each shown element's factory gets its context")
  func contexts() async throws {
    let navigator = makeApp()
    try await navigator.navigate(to: ["list", "detail", "comments"], contexts: ["detail": 7])
    let detail = try #require(navigator.visibleRoutables[1] as? Screen)
    #expect(detail.context as? Int == 7)
  }

  @Test("tables that undo each other's work stop with an error instead of looping")
  func nonConverging() async throws {
    // Showing "b" pushes "b" then "x"; hiding "x" pops back to the root.
    let list = Screen("list")
    list.table = [
      .show("b"): .custom { navigation in
        navigation.push(Screen("b"))
        navigation.push(Screen("x"))
      },
      .hide("x"): .popToRoot,
    ]
    let navigator = Navigator(root: list)
    let error = try await #require(throws: NavigationError.self) {
      try await navigator.navigate(to: ["list", "b"])
    }
    #expect(error.kind == .incomplete)
  }

  @Test("requests run one at a time, in the order they arrive")
  func serialized() async throws {
    let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
    let (release, releaseContinuation) = AsyncStream.makeStream(of: Void.self)
    let list = Screen("list")
    list.table = [
      .show("slow"): .custom { navigation in
        startedContinuation.yield()
        for await _ in release { break }
        navigation.push(Screen("slow"))
      },
      .show("fast"): .push { _ in Screen("fast") },
    ]
    let navigator = Navigator(root: list)
    let store = Store<Empty, Dependencies>(dependencies: Dependencies(navigator: navigator))
    let updates = navigator.routeUpdates()
    let slow = Task { try await navigator.show("slow") }
    for await _ in started { break }
    store.dispatch(any: Show("fast"))
    #expect(navigator.currentRoute == ["list"])
    releaseContinuation.yield()
    try await slow.value
    var seen: [Route] = []
    for await route in updates {
      seen.append(route)
      if seen.count == 2 { break }
    }
    #expect(seen == [["list", "slow"], ["list", "slow", "fast"]])
  }
}
