import Navigation
import StateStore
import StateStoreTesting
import Testing

@MainActor
@Suite("NavigationWitness", .timeLimit(.minutes(5)))
struct WitnessTests {
  @Test("records each request instead of performing it")
  func records() async throws {
    let witness = NavigationWitness(root: "list")
    let store = Store(
      initialState: AppState(), dependencies: Dependencies(navigator: witness.navigator))
    try await store.dispatch(Show("detail", context: 3))
    try await store.dispatch(Hide())
    try await store.dispatch(Navigate(to: ["list", "settings"]))
    try await store.dispatch(OpenDetail(id: 9))
    #expect(
      witness.actions == [
        .show("detail"), .hide(nil), .navigate(to: ["list", "settings"]), .show("detail"),
      ])
    #expect(witness.actions.first?.context as? Int == 3)
    #expect(witness.actions.last?.context as? Int == 9)
    #expect(witness.shownIdentifiers == ["detail", "detail"])
    #expect(witness.hiddenIdentifiers == [nil])
    #expect(witness.navigatedRoutes == [["list", "settings"]])
    #expect(witness.actions.map(\.description).first == #"Show("detail")"#)
    #expect(witness.navigator.currentRoute == ["list"])
    #expect(store.state.route == ["list"])
    witness.reset()
    #expect(witness.actions.isEmpty)
  }

  @Test("requests are equal when they ask for the same thing, whatever their contexts")
  func requestEquality() {
    struct Unhashable: Sendable {}
    #expect(NavigationAction.show("detail", context: 3) == .show("detail", context: Unhashable()))
    #expect(NavigationAction.show("detail") != .show("settings"))
    #expect(NavigationAction.show("detail") != .showAll(["detail"]))
    #expect(NavigationAction.hide(nil) != .hide("detail"))
    #expect(NavigationAction.finish("date", result: 1) == .finish("date", result: "one"))
    #expect(NavigationAction.navigate(to: ["a", "b"]) != .navigate(to: ["a"]))
    #expect(NavigationAction.changeRoot("home") != .show("home"))
    let hashes = Set([
      NavigationAction.show("detail", context: 3), .show("detail", context: 4), .hide(nil),
      .navigate(to: ["a"], contexts: ["a": 1]), .navigate(to: ["a"]),
    ])
    #expect(hashes.count == 3)
  }

  @Test("can make a request fail, to test the error path")
  func failure() async throws {
    struct Refused: Error {}
    let witness = NavigationWitness(root: "list")
    witness.failure = { action in
      if case .show("detail", _) = action { Refused() } else { nil }
    }
    let store = Store(
      initialState: AppState(), dependencies: Dependencies(navigator: witness.navigator))
    await #expect(throws: Refused.self) { try await store.dispatch(Show("detail")) }
    try await store.dispatch(Show("settings"))
    #expect(witness.actions == [.show("detail"), .show("settings")])
  }

  @Test("mocked: a sub-flow's result is answered per identifier, without building screens")
  func mockedResults() async throws {
    let witness = NavigationWitness(root: "list")
    witness.answer("confirm") { context in context as? Int == 3 }
    witness.answer(.dueDate) { _ in 12 }
    let store = Store(
      initialState: AppState(), dependencies: Dependencies(navigator: witness.navigator))
    #expect(witness.mode == .mocked)
    #expect(try await store.dispatch(ShowForResult("confirm", of: Bool.self, context: 3)) == true)
    #expect(try await store.dispatch(AskDueDate()) == 12)
    #expect(try await store.dispatch(ShowForResult("unanswered", of: Int.self)) == nil)
    #expect(witness.actions == [.show("confirm"), .show("due-date"), .show("unanswered")])
    try await store.dispatch(Show(["a", "b"]))
    #expect(witness.actions.last == .showAll(["a", "b"]))
    #expect(witness.shownIdentifiers == ["confirm", "due-date", "unanswered", "a", "b"])
    #expect(witness.navigator.currentRoute == ["list"])
  }

  @Test("mocked: an answer of the wrong type throws, a throwing handler fails the request")
  func mockedErrors() async throws {
    struct Offline: Error {}
    let witness = NavigationWitness(root: "list")
    witness.answer("confirm") { _ in "yes" }
    witness.answer("login") { _ -> Bool? in throw Offline() }
    let store = Store(
      initialState: AppState(), dependencies: Dependencies(navigator: witness.navigator))
    let error = try await #require(throws: NavigationError.self) {
      try await store.dispatch(ShowForResult("confirm", of: Bool.self))
    }
    #expect(error.kind == .resultTypeMismatch(expected: "Swift.Bool", got: "Swift.String"))
    await #expect(throws: Offline.self) {
      try await store.dispatch(ShowForResult("login", of: Bool.self))
    }
  }

  @Test("live: requests are recorded and really performed; answers still stand in")
  func live() async throws {
    let navigator = makeSubFlowApp()
    let witness = NavigationWitness(live: navigator)
    witness.answer("settings") { _ in true }
    let store = Store(initialState: AppState(), dependencies: Dependencies(navigator: navigator))
    try await store.dispatch(Show("detail"))
    #expect(try await store.dispatch(ShowForResult("settings", of: Bool.self)) == true)
    let caller = Task { try await store.dispatch(ShowForResult(.dueDate)) }
    await waitUntil(navigator, shows: ["list", "detail", "due-date"])
    try await store.dispatch(Finish(.dueDate, with: 2))
    #expect(try await caller.value == 2)
    #expect(witness.mode == .live)
    #expect(
      witness.actions == [
        .show("detail"), .show("settings"), .show("due-date"), .finish("due-date", result: 2),
      ])
    #expect(store.state.route == ["list", "detail"])
  }

  @Test("unimplemented: any request fails the test and throws")
  func unimplemented() async throws {
    let witness = NavigationWitness.unimplemented()
    let store = Store(
      initialState: AppState(), dependencies: Dependencies(navigator: witness.navigator))
    // Only the witness's own issue is absorbed; the throw is checked outside, where a missing
    // or different error fails the test.
    var errors: [any Error] = []
    await withKnownIssue {
      do { _ = try await store.dispatch(Show("detail")) } catch { errors.append(error) }
    } matching: { issue in
      String(describing: issue).contains("Unimplemented navigation")
    }
    await withKnownIssue {
      do { _ = try await store.dispatch(ShowForResult(.dueDate)) } catch { errors.append(error) }
    } matching: { issue in
      String(describing: issue).contains("Unimplemented navigation")
    }
    #expect(errors.count == 2)
    #expect(errors.allSatisfy { $0 is UnimplementedNavigationError })
    #expect(witness.actions == [.show("detail"), .show("due-date")])
  }

  @Test("a test store whose dependencies need a navigator builds no screen when it never navigates")
  func testStoreWithoutScreens() async {
    let store = TestStore(
      initialState: AppState(), dependencies: Dependencies(navigator: Navigator()))
    await store.send(Bump()) { $0.counter = 1 }
    let unimplemented = TestStore(
      initialState: AppState(),
      dependencies: Dependencies(navigator: NavigationWitness.unimplemented().navigator))
    await unimplemented.send(Bump()) { $0.counter = 1 }
  }
}
