import SideEffects
import Testing

@MainActor
@Suite("Effect errors reach someone", .timeLimit(.minutes(5)))
struct ErrorTests {
  @Test("an awaited effect's error reaches the caller")
  func awaitedErrorReachesCaller() async {
    let store = makeStore()
    let hook = ErrorHook(store)
    await #expect(throws: TestError(message: "boom")) {
      try await store.dispatch(Failing(message: "boom"))
    }
    await #expect(throws: TestError(message: "bang")) {
      try await store.dispatch(FailingReturning(message: "bang"))
    }
    #expect(hook.errors.isEmpty)
  }

  @Test("a launched effect's error reaches the store's hook and the handle")
  func launchedErrorReachesHook() async {
    let store = makeStore()
    let hook = ErrorHook(store)
    let handle = store.launch(Failing(message: "lost?"))
    await hook.waitForErrors(1)
    #expect(hook.errors == ["Failing: TestError(message: \"lost?\")"])
    await #expect(throws: TestError(message: "lost?")) { try await handle.value }
  }

  @Test("a launched returning effect's error reaches the hook and whoever awaits the value")
  func launchedReturningError() async {
    let store = makeStore()
    let hook = ErrorHook(store)
    let handle = store.launch(FailingReturning(message: "x"))
    await #expect(throws: TestError(message: "x")) { try await handle.value }
    await hook.waitForErrors(1)
    #expect(hook.errors == ["FailingReturning: TestError(message: \"x\")"])
  }

  @Test("an effect dispatched untyped reports its error to the hook")
  func untypedErrorReachesHook() async {
    let store = makeStore()
    let hook = ErrorHook(store)
    let item: any Dispatchable = Failing(message: "untyped")
    store.dispatch(any: item)
    await hook.waitForErrors(1)
    #expect(hook.errors == ["Failing: TestError(message: \"untyped\")"])
  }

  @Test("a nested effect's error propagates through the outer effect")
  func nestedErrorPropagates() async {
    struct Outer: SideEffect {
      func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
        try await context.dispatch(Failing(message: "inner"))
        await context.dispatch(Increment())
      }
    }
    let store = makeStore()
    await #expect(throws: TestError(message: "inner")) { try await store.dispatch(Outer()) }
    #expect(store.state.value == 0)
  }
}
