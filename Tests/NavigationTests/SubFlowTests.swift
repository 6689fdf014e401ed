// What these tests catch (changes to the library that must turn them red):
// - `finishSubFlow` (SubFlows/Navigator+SubFlows.swift) taking the first sub-flow shown as the
//   identifier (`firstIndex`) instead of the topmost (`lastIndex`), so that `Finish` completes
//   the outer of two nested sub-flows → `nestedWithTheSameIdentifier`.

import Navigation
import SideEffects
import StateStore
import Testing

@MainActor
@Suite("Sub-flows that return results", .timeLimit(.minutes(5)))
struct SubFlowTests {
  private func makeStore(tracker: ScreenTracker = ScreenTracker())
    -> (Store<AppState, Dependencies>, Navigator)
  {
    let navigator = makeSubFlowApp(tracker: tracker)
    let store = Store(initialState: AppState(), dependencies: Dependencies(navigator: navigator))
    return (store, navigator)
  }

  @Test("the awaited dispatch returns the finished value once the sub-flow is hidden")
  func finishedWithAValue() async throws {
    let tracker = ScreenTracker()
    let (store, navigator) = makeStore(tracker: tracker)
    let caller = Task { try await store.dispatch(ShowForResult("due-date", of: Int.self)) }
    await waitUntil(navigator, shows: ["list", "due-date"])
    #expect(store.state.route == ["list", "due-date"])
    try await store.dispatch(Finish("due-date", with: 42))
    #expect(try await caller.value == 42)
    #expect(navigator.currentRoute == ["list"])
    #expect(store.state.route == ["list"])
    #expect(tracker.alive.isEmpty)
  }

  @Test("a routable deeper in the sub-flow finishes it, and every routable of it is released")
  func finishedFromDeeper() async throws {
    let tracker = ScreenTracker()
    let (store, navigator) = makeStore(tracker: tracker)
    let caller = Task { try await store.dispatch(ShowForResult(.dueDate)) }
    await waitUntil(navigator, shows: ["list", "due-date"])
    try await store.dispatch(Show("month"))
    #expect(tracker.alive == ["due-date", "month"])
    try await store.dispatch(Finish(.dueDate, with: 7))
    #expect(try await caller.value == 7)
    #expect(navigator.levelRoutes == [["list"]])
    #expect(tracker.alive.isEmpty)
  }

  @Test("a side effect awaits a result through its context")
  func fromASideEffect() async throws {
    let (store, navigator) = makeStore()
    let caller = Task { try await store.dispatch(AskDueDate()) }
    await waitUntil(navigator, shows: ["list", "due-date"])
    try await navigator.finish("due-date", with: 3)
    #expect(try await caller.value == 3)
  }

  @Test("hidden without a result (back), the caller gets nil")
  func hiddenGivesNil() async throws {
    let (store, navigator) = makeStore()
    let caller = Task { try await store.dispatch(ShowForResult(.dueDate)) }
    await waitUntil(navigator, shows: ["list", "due-date"])
    try await store.dispatch(Hide())
    #expect(try await caller.value == nil)
    #expect(store.state.route == ["list"])
  }

  @Test("an outside Navigate elsewhere, while the caller waits, gives nil")
  func navigateElsewhereGivesNil() async throws {
    let tracker = ScreenTracker()
    let (store, navigator) = makeStore(tracker: tracker)
    let caller = Task { try await store.dispatch(ShowForResult(.dueDate)) }
    await waitUntil(navigator, shows: ["list", "due-date"])
    try await store.dispatch(Navigate(to: ["list", "settings"]))
    #expect(try await caller.value == nil)
    #expect(tracker.alive == ["settings"])
  }

  @Test("its presenter hidden, the caller gets nil")
  func presenterHiddenGivesNil() async throws {
    let (store, navigator) = makeStore()
    try await store.dispatch(Show("detail"))
    let caller = Task { try await store.dispatch(ShowForResult(.dueDate)) }
    await waitUntil(navigator, shows: ["list", "detail", "due-date"])
    try await store.dispatch(Hide("detail"))
    #expect(try await caller.value == nil)
    #expect(navigator.currentRoute == ["list"])
  }

  @Test("its routables released with the old root, the caller gets nil")
  func rootChangedGivesNil() async throws {
    let tracker = ScreenTracker()
    let (store, navigator) = makeStore(tracker: tracker)
    let caller = Task { try await store.dispatch(ShowForResult(.dueDate)) }
    await waitUntil(navigator, shows: ["list", "due-date"])
    try await navigator.changeRoot(to: Screen("home"))
    #expect(try await caller.value == nil)
    #expect(tracker.alive.isEmpty)
    #expect(store.state.route == ["home"])
  }

  @Test("a result of the wrong type throws to the finisher and leaves the sub-flow open")
  func wrongType() async throws {
    let (store, navigator) = makeStore()
    let caller = Task { try await store.dispatch(ShowForResult(.dueDate)) }
    await waitUntil(navigator, shows: ["list", "due-date"])
    let error = try await #require(throws: NavigationError.self) {
      try await store.dispatch(Finish("due-date", with: "tomorrow"))
    }
    #expect(error.kind == .resultTypeMismatch(expected: "Swift.Int", got: "Swift.String"))
    #expect(navigator.currentRoute == ["list", "due-date"])
    try await store.dispatch(Finish(.dueDate, with: 1))
    #expect(try await caller.value == 1)
  }

  @Test("finishing a sub-flow nobody awaits throws noSubFlow")
  func nothingToFinish() async throws {
    let (store, _) = makeStore()
    try await store.dispatch(Show("due-date"))
    let error = try await #require(throws: NavigationError.self) {
      try await store.dispatch(Finish(.dueDate, with: 1))
    }
    #expect(error.kind == .noSubFlow)
  }

  @Test("a Show that fails throws to the caller")
  func showFails() async throws {
    let (store, navigator) = makeStore()
    let error = try await #require(throws: NavigationError.self) {
      try await store.dispatch(ShowForResult("nowhere", of: Int.self))
    }
    #expect(error.kind == .unhandled)
    #expect(navigator.currentRoute == ["list"])
  }

  @Test("nested sub-flows: the inner finishes alone; hiding the outer gives the inner nil")
  func nested() async throws {
    let (store, navigator) = makeStore()
    try await store.dispatch(Show("detail"))
    let outer = Task { try await store.dispatch(ShowForResult(.dueDate)) }
    await waitUntil(navigator, shows: ["list", "detail", "due-date"])
    let inner = Task { try await store.dispatch(ShowForResult("settings", of: Bool.self)) }
    await waitUntil(navigator, shows: ["list", "detail", "due-date", "settings"])
    try await store.dispatch(Finish("settings", with: true))
    #expect(try await inner.value == true)
    #expect(navigator.currentRoute == ["list", "detail", "due-date"])
    let again = Task { try await store.dispatch(ShowForResult("settings", of: Bool.self)) }
    await waitUntil(navigator, shows: ["list", "detail", "due-date", "settings"])
    try await store.dispatch(Finish(.dueDate, with: 5))
    #expect(try await outer.value == 5)
    #expect(try await again.value == nil)
    #expect(navigator.currentRoute == ["list", "detail"])
  }

  @Test("nested sub-flows shown as the same identifier: Finish completes the innermost one first")
  func nestedWithTheSameIdentifier() async throws {
    let tracker = ScreenTracker()
    // A picker that pushes another picker: each one shown for a result, under one identifier.
    func picker() -> RoutableFactory {
      tracker.make("picker") { [.show("picker"): .push(picker())] }
    }
    let navigator = Navigator(root: Screen("list", [.show("picker"): .presentModally(picker())]))
    let store = Store(initialState: AppState(), dependencies: Dependencies(navigator: navigator))
    let outer = Task { try await store.dispatch(ShowForResult("picker", of: Int.self)) }
    await waitUntil(navigator, shows: ["list", "picker"])
    let inner = Task { try await store.dispatch(ShowForResult("picker", of: Int.self)) }
    await waitUntil(navigator, shows: ["list", "picker", "picker"])
    try await store.dispatch(Finish("picker", with: 1))
    #expect(try await inner.value == 1)
    #expect(navigator.currentRoute == ["list", "picker"])
    #expect(tracker.alive == ["picker"])
    try await store.dispatch(Finish("picker", with: 2))
    #expect(try await outer.value == 2)
    #expect(navigator.currentRoute == ["list"])
    #expect(tracker.alive.isEmpty)
  }

  @Test("an interceptor that drops the request gives nil without navigating")
  func droppedByInterceptor() async throws {
    let drop = StoreInterceptor<AppState> { dispatchable, _, next in
      if dispatchable is ShowForResult<Int> { return }
      next(dispatchable)
    }
    let navigator = makeSubFlowApp()
    let store = Store(
      initialState: AppState(), dependencies: Dependencies(navigator: navigator),
      interceptors: [drop])
    #expect(try await store.dispatch(ShowForResult(.dueDate)) == nil)
    #expect(navigator.currentRoute == ["list"])
  }

  @Test("cancelling the awaiting task hides the sub-flow and throws CancellationError, once")
  func cancelled() async throws {
    let tracker = ScreenTracker()
    let (store, navigator) = makeStore(tracker: tracker)
    let caller = Task { try await store.dispatch(ShowForResult(.dueDate)) }
    await waitUntil(navigator, shows: ["list", "due-date"])
    caller.cancel()
    await #expect(throws: CancellationError.self) { try await caller.value }
    await waitUntil(navigator, shows: ["list"])
    #expect(store.state.route == ["list"])
    #expect(tracker.alive.isEmpty)
    // Resumed once: nothing is left to finish, so no second resumption can happen.
    let error = try await #require(throws: NavigationError.self) {
      try await store.dispatch(Finish(.dueDate, with: 1))
    }
    #expect(error.kind == .noSubFlow)
  }

  @Test("cancelled before its turn, the sub-flow is never shown")
  func cancelledBeforeShown() async throws {
    let (store, navigator) = makeStore()
    let caller = Task { try await store.dispatch(ShowForResult(.dueDate)) }
    caller.cancel()
    await #expect(throws: CancellationError.self) { try await caller.value }
    // A request queued behind it runs after it: by then the cancelled one has had its turn.
    try await store.dispatch(Show("detail"))
    #expect(navigator.currentRoute == ["list", "detail"])
  }

  @Test("a result finished after the caller was cancelled is refused, never resumed twice")
  func finishAfterCancel() async throws {
    let (store, navigator) = makeStore()
    let caller = Task { try await store.dispatch(ShowForResult(.dueDate)) }
    await waitUntil(navigator, shows: ["list", "due-date"])
    caller.cancel()
    // The finish races the cancellation's hop to the main actor: whichever wins, the caller
    // gets exactly one outcome.
    _ = try? await navigator.finish("due-date", with: 9)
    let outcome = await caller.result
    switch outcome {
    case .success(let value): #expect(value == 9)
    case .failure(let error): #expect(error is CancellationError)
    }
    await waitUntil(navigator, shows: ["list"])
  }

  @Test("the navigator's own showForResult works without a store")
  func directOnNavigator() async throws {
    let navigator = makeSubFlowApp()
    let caller = Task { try await navigator.showForResult("due-date", of: Int.self) }
    await waitUntil(navigator, shows: ["list", "due-date"])
    try await navigator.finish("due-date", with: 11)
    #expect(try await caller.value == 11)
  }

  @Test("an interceptor that replaces the request by a plain Show runs it and gives nil")
  func replacedByInterceptor() async throws {
    let replace = StoreInterceptor<AppState> { dispatchable, _, next in
      if dispatchable is ShowForResult<Int> { next(Show("detail")) } else { next(dispatchable) }
    }
    let navigator = makeSubFlowApp()
    let store = Store(
      initialState: AppState(), dependencies: Dependencies(navigator: navigator),
      interceptors: [replace])
    #expect(try await store.dispatch(ShowForResult(.dueDate)) == nil)
    #expect(navigator.currentRoute == ["list", "detail"])
  }

  @Test("a custom instruction that drops the sub-flow's routables resumes the caller with nil")
  func droppedByCustomInstruction() async throws {
    let tracker = ScreenTracker()
    let list = Screen(
      "list",
      [
        .show("due-date"): .presentModally(tracker.make("due-date")),
        .show("reset"): .custom { navigation in
          try navigation.replaceLevels([[navigation.navigator.root, Screen("reset")]])
        },
      ])
    let navigator = Navigator(root: list)
    let caller = Task { try await navigator.showForResult("due-date", of: Int.self) }
    await waitUntil(navigator, shows: ["list", "due-date"])
    try await navigator.show("reset")
    #expect(try await caller.value == nil)
    #expect(tracker.alive.isEmpty)
  }

  @Test("an interceptor that redirects the sub-flow to another of the same type is awaited there")
  func redirectedByInterceptor() async throws {
    let redirect = StoreInterceptor<AppState> { dispatchable, _, next in
      if let request = dispatchable as? ShowForResult<Bool>, request.identifier == "legacy" {
        next(ShowForResult("settings", of: Bool.self))
      } else {
        next(dispatchable)
      }
    }
    let navigator = makeSubFlowApp()
    let store = Store(
      initialState: AppState(), dependencies: Dependencies(navigator: navigator),
      interceptors: [redirect])
    let caller = Task { try await store.dispatch(ShowForResult("legacy", of: Bool.self)) }
    await waitUntil(navigator, shows: ["list", "settings"])
    try await store.dispatch(Finish("settings", with: true))
    #expect(try await caller.value == true)
  }
}
