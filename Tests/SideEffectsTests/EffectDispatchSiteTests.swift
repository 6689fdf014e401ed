import SideEffects
import Testing

/// An effect's updaters name the line in the effect that dispatched them, and their cause
/// names the effect, the line that dispatched the effect, and what caused that dispatch.
@MainActor
@Suite("Dispatch sites through effects", .timeLimit(.minutes(5)))
struct EffectDispatchSiteTests {
  /// The line of the `context.dispatch` in `Outer`'s body.
  nonisolated static let outerIncrementLine = #line + 6
  /// The line of the nested effect's dispatch in `Outer`'s body.
  nonisolated static let innerEffectLine = #line + 5

  struct Outer: SideEffect {
    func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
      await context.dispatch(Increment())
      try await context.dispatch(Inner())
    }
  }

  /// The line of the `context.dispatch` in `Inner`'s body.
  nonisolated static let innerAppendLine = #line + 4

  struct Inner: SideEffect {
    func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
      await context.dispatch(Append(entry: "inner"))
    }
  }

  @Test("an effect's dispatch names its own line, the effect and the effect's site")
  func effectChain() async throws {
    let store = makeStore()
    var updates: [(site: DispatchSite?, cause: DispatchCause?)] = []
    let token = store.observeUpdates { updates.append(($0.site, $0.cause)) }
    try await store.dispatch(Outer())
    let outerLine = #line - 1
    token.cancel()

    try #require(updates.count == 2)
    let outerSite = DispatchSite(fileID: #fileID, line: outerLine)
    #expect(updates[0].site == DispatchSite(fileID: #fileID, line: Self.outerIncrementLine))
    #expect(updates[0].cause?.name == "Outer")
    #expect(updates[0].cause?.site == outerSite)
    #expect(updates[0].cause?.parent == nil)

    #expect(updates[1].site == DispatchSite(fileID: #fileID, line: Self.innerAppendLine))
    let inner = try #require(updates[1].cause)
    #expect(inner.name == "Outer › Inner")
    #expect(inner.site == DispatchSite(fileID: #fileID, line: Self.innerEffectLine))
    #expect(inner.parent?.name == "Outer")
    #expect(inner.parent?.site == outerSite)
    #expect(inner.chain.map(\.name) == ["Outer › Inner", "Outer"])
  }

  @Test("a launched effect's cause names the launch's line")
  func launchedEffect() async throws {
    let store = makeStore()
    var causes: [DispatchCause?] = []
    let token = store.observeUpdates { causes.append($0.cause) }
    await store.launch(Inner()).finish()
    let launchLine = #line - 1
    token.cancel()
    #expect(causes.map { $0?.site } == [DispatchSite(fileID: #fileID, line: launchLine)])
  }
}
