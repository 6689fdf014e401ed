import SideEffects
import StateStoreTesting
import Testing

@MainActor
@Test(
  "an effect of an element scope reads the element while it exists, and no state once it is removed"
)
func effectOfARemovedElement() async throws {
  let app = Store<TabsState, Void>(
    initialState: TabsState(tabs: [Tab(id: 1, title: "inbox"), Tab(id: 2, title: "work")]))
  let row = app.scope(state: \.tabs, id: 2)
  let (readFirst, signalReadFirst) = AsyncStream.makeStream(of: Void.self)
  let (removed, signalRemoved) = AsyncStream.makeStream(of: Void.self)
  let effect = Task {
    try await row.dispatch(
      ReadBeforeAndAfter(readFirst: signalReadFirst, removed: removed))
  }
  var firstRead = readFirst.makeAsyncIterator()
  await firstRead.next()
  app.dispatch(CloseTab(id: 2))
  signalRemoved.yield()
  let titles = try await effect.value
  #expect(titles == ["work", nil])
}

@MainActor
@Test(
  "a test store of an element scope whose element the test removed fails the send, and does not stop the process"
)
func testStoreOfARemovedElement() async {
  let app = Store<TabsState, Void>(initialState: TabsState(tabs: [Tab(id: 1, title: "inbox")]))
  let messages = await recordedIssues {
    let row = TestStore(wrapping: app.scope(state: \.tabs, id: 1))
    await row.send(Retitle(title: "mail")) { $0.title = "mail" }
    app.dispatch(CloseTab(id: 1))
    await row.send(Retitle(title: "post"))
  }
  #expect(messages.count == 1)
  #expect(messages.first?.contains("send(Retitle) on a scope whose slice is gone") == true)
  #expect(app.state.tabs.isEmpty)
}

private struct Retitle: StateUpdater {
  let title: String
  func updateState(_ state: inout Tab) { state.title = title }
}

private struct Tab: State, Identifiable, Equatable {
  var id = 0
  var title = ""
}

private struct TabsState: State {
  var tabs = TrackedArray<Tab>()
}

private struct CloseTab: StateUpdater {
  let id: Int
  func updateState(_ state: inout TabsState) { _ = state.tabs.remove(id: id) }
}

/// Reads its tab's title, waits until the test has removed the tab, and reads it again.
private struct ReadBeforeAndAfter: ReturningSideEffect {
  let readFirst: AsyncStream<Void>.Continuation
  let removed: AsyncStream<Void>

  func sideEffect(_ context: SideEffectContext<Tab, Void>) async throws -> [String?] {
    let before = await context.stateIfAvailable?.title
    readFirst.yield()
    var iterator = removed.makeAsyncIterator()
    await iterator.next()
    return [before, await context.stateIfAvailable?.title]
  }
}
