import Navigation
import Testing

@MainActor
@Suite("Resolving Show and Hide")
struct ResolutionTests {
  @Test("push adds to the current stack and presentModally opens a new level")
  func pushAndPresent() async throws {
    let navigator = makeApp()
    try await navigator.show("detail")
    try await navigator.show("comments")
    #expect(navigator.levelRoutes == [["list", "detail", "comments"]])
    try await navigator.show("editor")
    #expect(navigator.levelRoutes == [["list", "detail", "comments"], ["editor"]])
    #expect(navigator.currentRoute == ["list", "detail", "comments", "editor"])
    #expect(navigator.topmostRoutable.routeIdentifier == "editor")
  }

  @Test("a push inside a modal goes onto the modal's stack, whoever handles it")
  func pushInsideModal() async throws {
    let navigator = makeApp()
    try await navigator.show("settings")
    try await navigator.show("about")
    #expect(navigator.levelRoutes == [["list"], ["settings", "about"]])
    // Only the root's table has .show("help"): the push still lands on the topmost level.
    try await navigator.show("help")
    #expect(navigator.levelRoutes == [["list"], ["settings", "about", "help"]])
  }

  @Test("Show asks the routables on the route topmost first")
  func showTopmostFirst() async throws {
    let detail = Screen("detail", [.show("x"): .push { _ in Screen("x") }])
    let list = Screen(
      "list",
      [
        .show("detail"): .push { _ in detail },
        .show("x"): .presentModally { _ in Screen("x") },
      ])
    let navigator = Navigator(root: list)
    try await navigator.show("detail")
    try await navigator.show("x")
    #expect(navigator.levelRoutes == [["list", "detail", "x"]])
  }

  @Test("Hide asks the hidden routable first, then its ancestors")
  func hideAsksHiddenFirst() async throws {
    var asked: [String] = []
    let detail = Screen(
      "detail",
      [
        .hide("detail"): .custom { navigation in
          asked.append("detail")
          try navigation.replaceLevels([[navigation.navigator.root]])
        }
      ])
    let list = Screen(
      "list",
      [
        .show("detail"): .push { _ in detail },
        .hide("detail"): .custom { _ in asked.append("list") },
      ])
    let navigator = Navigator(root: list)
    try await navigator.show("detail")
    try await navigator.hide("detail")
    #expect(asked == ["detail"])
    #expect(navigator.currentRoute == ["list"])

    detail.table = [:]
    list.table[.hide("detail")] = .pop
    try await navigator.show("detail")
    try await navigator.hide("detail")
    #expect(navigator.currentRoute == ["list"])
  }

  @Test("Hide of a routable is not asked of the routables above it")
  func hideIgnoresRoutablesAbove() async throws {
    let navigator = makeApp()
    try await navigator.show("detail")
    try await navigator.show("comments")
    // comments has no table; list answers .hide("detail") with pop, which takes comments too.
    try await navigator.hide("detail")
    #expect(navigator.currentRoute == ["list"])
  }

  @Test("Hide() hides the topmost element")
  func hideTopmost() async throws {
    let navigator = makeApp()
    try await navigator.show("detail")
    try await navigator.show("comments")
    try await navigator.hide()
    #expect(navigator.currentRoute == ["list", "detail"])
  }

  @Test("a request nobody handles throws an error naming it and the route")
  func unhandledShow() async throws {
    let navigator = makeApp()
    try await navigator.show("detail")
    let error = try await #require(throws: NavigationError.self) {
      try await navigator.show("nowhere")
    }
    #expect(error.kind == .unhandled)
    #expect(error.request == #"Show("nowhere")"#)
    #expect(error.route == ["list", "detail"])
    #expect(error.description.contains(#"Show("nowhere")"#))
    #expect(error.description.contains("[list, detail]"))
    #expect(navigator.currentRoute == ["list", "detail"])
  }

  @Test("a Hide nobody handles throws")
  func unhandledHide() async throws {
    let navigator = makeApp()
    try await navigator.show("settings")
    try await navigator.show("confirm")
    try await navigator.hide("confirm")
    // settings answers .hide("settings"), but the help screen pushed on it answers nothing
    try await navigator.show("help")
    let error = try await #require(throws: NavigationError.self) {
      try await navigator.hide("help")
    }
    #expect(error.kind == .unhandled)
    #expect(error.request == #"Hide("help")"#)
    #expect(navigator.currentRoute == ["list", "settings", "help"])
  }

  @Test("Hide of an identifier that is not on the route throws and changes nothing")
  func hideNotOnRoute() async throws {
    let navigator = makeApp()
    try await navigator.show("detail")
    let error = try await #require(throws: NavigationError.self) {
      try await navigator.hide("settings")
    }
    #expect(error.kind == .notOnRoute)
    #expect(error.description.contains(#"Hide("settings")"#))
    #expect(navigator.currentRoute == ["list", "detail"])
  }

  @Test("hiding the root throws, even when a table would answer it")
  func hideRoot() async throws {
    let list = Screen("list", [.hide("list"): .popToRoot])
    let navigator = Navigator(root: list)
    let named = try await #require(throws: NavigationError.self) {
      try await navigator.hide("list")
    }
    #expect(named.kind == .cannotHideRoot)
    let topmost = try await #require(throws: NavigationError.self) {
      try await navigator.hide()
    }
    #expect(topmost.kind == .cannotHideRoot)
    #expect(navigator.currentRoute == ["list"])
  }

  @Test("pop cannot remove the root or the first routable of a modal")
  func popLimits() async throws {
    let list = Screen(
      "list",
      [
        .show("self"): .pop,
        .show("modal"): .presentModally { _ in Screen("modal", [.hide("modal"): .pop]) },
      ])
    let navigator = Navigator(root: list)
    let root = try await #require(throws: NavigationError.self) {
      try await navigator.show("self")
    }
    #expect(root.kind == .cannotHideRoot)
    try await navigator.show("modal")
    let modal = try await #require(throws: NavigationError.self) {
      try await navigator.hide("modal")
    }
    #expect(modal.kind == .cannotPopFirstOfModal)
    #expect(navigator.currentRoute == ["list", "modal"])
  }

  @Test("popToRoot and popTo trim the route")
  func popToRootAndPopTo() async throws {
    let list = Screen(
      "list",
      [
        .show("a"): .push { _ in Screen("a") },
        .show("b"): .push { _ in Screen("b") },
        .show("c"): .presentModally { _ in Screen("c") },
        .show("home"): .popToRoot,
        .show("back-to-a"): .popTo("a"),
        .show("back-to-z"): .popTo("z"),
      ])
    let navigator = Navigator(root: list)
    for identifier in ["a", "b", "c"] { try await navigator.show(identifier) }
    #expect(navigator.levelRoutes == [["list", "a", "b"], ["c"]])
    // .show("back-to-a") is answered, but "back-to-a" never appears: that is an incomplete step.
    let incomplete = try await #require(throws: NavigationError.self) {
      try await navigator.show("back-to-a")
    }
    #expect(incomplete.kind == .incomplete)
    #expect(navigator.levelRoutes == [["list", "a"]])
    let missing = try await #require(throws: NavigationError.self) {
      try await navigator.show("back-to-z")
    }
    #expect(missing.kind == .notOnRoute)
    try await navigator.show("b")
    _ = try? await navigator.show("home")
    #expect(navigator.levelRoutes == [["list"]])
  }

  @Test("a factory must build the routable it was asked for")
  func identifierMismatch() async throws {
    let list = Screen("list", [.show("detail"): .push { _ in Screen("other") }])
    let navigator = Navigator(root: list)
    let error = try await #require(throws: NavigationError.self) {
      try await navigator.show("detail")
    }
    #expect(error.kind == .identifierMismatch(built: "other"))
    #expect(navigator.currentRoute == ["list"])
  }

  @Test(
    "a factory's error reaches the caller, wrapped with the route and target, and the route stays")
  func factoryThrows() async throws {
    struct NoTodo: Error {}
    let list = Screen("list", [.show("detail"): .push { _ in throw NoTodo() }])
    let navigator = Navigator(root: list)
    let error = try await #require(throws: NavigationError.self) {
      try await navigator.show("detail")
    }
    #expect(error.kind == .factoryFailed)
    #expect(error.underlyingError is NoTodo)
    #expect(error.request == #"Show("detail")"#)
    #expect(error.route == ["list"])
    #expect(error.description.contains("NoTodo"))
    #expect(navigator.currentRoute == ["list"])
  }

  @Test("a factory's error in a Navigate step names the target too")
  func factoryThrowsInNavigate() async throws {
    struct NoTodo: Error {}
    let list = Screen("list", [.show("detail"): .push { _ in throw NoTodo() }])
    let navigator = Navigator(root: list)
    let error = try await #require(throws: NavigationError.self) {
      try await navigator.navigate(to: ["list", "detail"])
    }
    #expect(error.kind == .factoryFailed)
    #expect(error.underlyingError is NoTodo)
    #expect(error.navigationTarget == ["list", "detail"])
  }

  @Test("factories receive the request's context")
  func contextReachesFactory() async throws {
    let navigator = makeApp()
    try await navigator.show("detail", context: 42)
    let detail = try #require(navigator.topmostRoutable as? Screen)
    #expect(detail.context as? Int == 42)
  }

  @Test("a custom instruction can change the route arbitrarily and run nested requests")
  func customInstruction() async throws {
    let list = Screen("list")
    list.table = [
      .show("tabs"): .custom { navigation in
        #expect(navigation.request == .show("tabs"))
        #expect(navigation.context as? String == "hello")
        #expect(navigation.handler === list)
        navigation.push(Screen("tabs"))
        navigation.presentModally(Screen("welcome"))
        // Awaiting the navigator from inside a request runs nested, instead of deadlocking.
        try await navigation.navigator.show("more")
      },
      .show("more"): .push { _ in Screen("more") },
      .show("broken"): .custom { navigation in
        try navigation.replaceLevels([[Screen("impostor")]])
      },
    ]
    let navigator = Navigator(root: list)
    try await navigator.show("tabs", context: "hello")
    #expect(navigator.levelRoutes == [["list", "tabs"], ["welcome", "more"]])
    let error = try await #require(throws: NavigationError.self) {
      try await navigator.show("broken")
    }
    #expect(error.kind == .invalidLevels)
    #expect(navigator.levelRoutes == [["list", "tabs"], ["welcome", "more"]])
  }
}
