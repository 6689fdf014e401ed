import ActionLog
import Foundation
import SideEffects
import StateStore
import Testing

/// A side effect whose updater's line the test knows.
struct LoadOneTodo: SideEffect {
  /// The line of the `context.dispatch` below.
  static let dispatchLine = #line + 3

  func sideEffect(_ context: SideEffectContext<TodoState, Void>) async throws {
    await context.dispatch(AddTodo(title: "loaded"))
  }
}

@Suite("Dispatch sites in the action log")
@MainActor
struct DispatchSiteLogTests {
  @Test("a recorded entry carries its dispatch's site, and an effect's its cause's site")
  func sitesRoundTrip() async throws {
    let store = Store<TodoState, Void>()
    let recorder = try ActionRecorder(
      store: store, registry: .todos(), destination: .memory,
      options: ActionRecorder.Options(recordsSites: true))
    store.dispatch(SetFilter(filter: .open))
    let filterLine = #line - 1
    try await store.dispatch(LoadOneTodo())
    let effectLine = #line - 1

    let text = String(decoding: recorder.recordedData, as: UTF8.self)
    #expect(text.contains(#""site":"ActionLogTests/DispatchSiteLogTests.swift:\#(filterLine)""#))

    let directory = try TemporaryDirectory()
    let url = directory.file("sites.jsonl")
    try recorder.recordedData.write(to: url)
    let entries = try ActionReplayer(registry: .todos()).entries(contentsOf: url)
    try #require(entries.count == 2)
    #expect(entries[0].site == DispatchSite(fileID: #fileID, line: filterLine))
    #expect(entries[0].cause == nil)
    #expect(entries[1].site == DispatchSite(fileID: #fileID, line: LoadOneTodo.dispatchLine))
    #expect(entries[1].cause?.name == "LoadOneTodo")
    #expect(entries[1].cause?.site == DispatchSite(fileID: #fileID, line: effectLine))
  }

  @Test("sites are written in diff mode, and not by default, so a plain log keeps its bytes")
  func sitesFollowDiffMode() throws {
    let plainStore = Store<TodoState, Void>()
    let plain = try ActionRecorder(store: plainStore, registry: .todos(), destination: .memory)
    plainStore.dispatch(AddTodo(title: "x"))
    #expect(!String(decoding: plain.recordedData, as: UTF8.self).contains("site"))

    let diffStore = Store<TodoState, Void>()
    let diffed = try ActionRecorder(
      store: diffStore, registry: .todos(), destination: .memory,
      options: ActionRecorder.Options(recordsDiffs: true))
    diffStore.dispatch(AddTodo(title: "x"))
    let line = #line - 1
    #expect(
      String(decoding: diffed.recordedData, as: UTF8.self).contains(
        #""site":"ActionLogTests/DispatchSiteLogTests.swift:\#(line)""#))
  }

  @Test("a nested effect's parents are written and read back as one chain")
  func parentsRoundTrip() throws {
    let outer = DispatchCause(
      "Outer", site: DispatchSite(fileID: "App/A.swift", line: 3), parent: nil)
    let inner = DispatchCause(
      "Outer › Inner", site: DispatchSite(fileID: "App/B.swift", line: 9), parent: outer)
    var writer = ActionLogWriter(registry: .todos())
    try writer.append(
      AddTodo(title: "x"), cause: inner, site: DispatchSite(fileID: "App/C.swift", line: 12))
    let directory = try TemporaryDirectory()
    let url = directory.file("chain.jsonl")
    try writer.data.write(to: url)
    let entry = try #require(try ActionReplayer(registry: .todos()).entries(contentsOf: url).first)
    #expect(entry.cause == inner)
    #expect(entry.site == DispatchSite(fileID: "App/C.swift", line: 12))
  }

  @Test("a log written before sites reads with no site")
  func oldLogHasNoSite() throws {
    var writer = ActionLogWriter(registry: .todos())
    try writer.append(AddTodo(title: "x"), cause: DispatchCause("user: add"))
    let text = String(decoding: writer.data, as: UTF8.self)
    #expect(!text.contains("site"))
    let directory = try TemporaryDirectory()
    let url = directory.file("old.jsonl")
    try writer.data.write(to: url)
    let entry = try #require(try ActionReplayer(registry: .todos()).entries(contentsOf: url).first)
    #expect(entry.site == nil)
    #expect(entry.cause == DispatchCause("user: add"))
  }
}
