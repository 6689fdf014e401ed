import ActionLog
import Foundation
import SideEffects
import StateStore
import StateStoreTesting
import Testing

/// What the search effects below get: a clock to wait on and a search to call.
struct SearchDependencies: Sendable {
  var clock: TestClock
  var search: @Sendable (String) async throws -> [String]
}

/// The dependency failure the tests record.
struct Offline: Error {}

/// A search that waits two seconds on the clock, then adds what its dependency found.
struct SearchTodos: SideEffect, Codable {
  var query: String
  var cancellationID: CancellationID? { "search" }

  func sideEffect(_ context: SideEffectContext<TodoState, SearchDependencies>) async throws {
    try await context.dependencies.clock.sleep(for: .seconds(2))
    let titles = try await context.recorded { try await context.dependencies.search(query) }
    for title in titles { await context.dispatch(AddTodo(title: title)) }
  }
}

/// A search that asks its dependency at once, twice, with labels.
struct LookUp: SideEffect, Codable {
  var query: String

  func sideEffect(_ context: SideEffectContext<TodoState, SearchDependencies>) async throws {
    let first = try await context.recorded("first") { try await context.dependencies.search(query) }
    await context.dispatch(AddTodo(title: first.joined(separator: "+")))
    let count = try await context.recorded("count") { first.count }
    await context.dispatch(AddLabel(label: "\(count)"))
  }
}

/// A search that does not start while another search runs.
struct KeptOutSearch: SideEffect {
  var query: String
  var cancellationID: CancellationID? { "search" }
  var cancellationPolicy: CancellationPolicy { .keepInFlight }

  func sideEffect(_ context: SideEffectContext<TodoState, SearchDependencies>) async throws {
    Issue.record("a kept-out search ran")
  }
}

/// An effect that a replay starts in place of ``LookUp``.
struct LookUpOnce: SideEffect, Codable {
  var query: String

  func sideEffect(_ context: SideEffectContext<TodoState, SearchDependencies>) async throws {
    let first = try await context.recorded("first") { try await context.dependencies.search(query) }
    await context.dispatch(AddTodo(title: first.joined(separator: "+")))
  }
}

/// A state whose todos a scope holds.
struct ScopedSearchState: State, Codable {
  var todos = TodoState()
}

/// Searches twice through one wrapped function.
struct SearchTwice: SideEffect {
  var query: String

  func sideEffect(_ context: SideEffectContext<TodoState, SearchDependencies>) async throws {
    let search = context.recorded("search", context.dependencies.search)
    for title in try await search(query) + (try await search(query + " again")) {
      await context.dispatch(AddTodo(title: title))
    }
  }
}

@Suite("Effects in the action log")
@MainActor
struct EffectLogTests {
  /// A store whose search finds `"<query> found"`.
  private func makeStore(
    clock: TestClock = TestClock(),
    search: @escaping @Sendable (String) async throws -> [String] = { ["\($0) found"] }
  ) -> Store<TodoState, SearchDependencies> {
    Store(initialState: TodoState(), dependencies: SearchDependencies(clock: clock, search: search))
  }

  private func recorder(
    _ store: Store<TodoState, SearchDependencies>, clock: TestClock
  ) throws -> ActionRecorder {
    try ActionRecorder(
      store: store, registry: .todos(), destination: .memory,
      options: ActionRecorder.Options(recordsEffects: true, effectClock: clock))
  }

  @Test("an effect's start, values, end and duration are recorded, under the entry before it")
  func startValuesEnd() async throws {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    let recorder = try recorder(store, clock: clock)
    store.dispatch(SetFilter(filter: .open))
    let search = DispatchCause.$current.withValue(DispatchCause("user: search")) {
      store.launch(SearchTodos(query: "milk"))
    }
    let launchLine = #line - 2
    await clock.waitForSleepers()
    await clock.advance(by: .seconds(2))
    await search.finish()

    let effects = try ActionReplayer(registry: .todos()).effects(recorder.recordedData)
    try #require(effects.count == 1)
    let effect = effects[0]
    #expect(effect.number == 1)
    #expect(effect.type == "SearchTodos")
    #expect(effect.cancellationID == "search")
    #expect(effect.afterEntry == 1)
    #expect(effect.site == DispatchSite(fileID: #fileID, line: launchLine))
    #expect(effect.cause == "user: search")
    #expect(effect.values == [.init(label: "Array<String>", json: .array([.string("milk found")]))])
    #expect(effect.end == .finished)
    #expect(effect.duration == .seconds(2))

    let text = String(decoding: recorder.recordedData, as: UTF8.self)
    #expect(
      text.contains(
        #"{"seq":2,"type":"AddTodo","cause":"user: search › SearchTodos","effect":1,"payload":"#))
    let directory = try TemporaryDirectory()
    let url = directory.file("effects.jsonl")
    try recorder.recordedData.write(to: url)
    let entries = try ActionReplayer(registry: .todos()).entries(contentsOf: url)
    #expect(entries.map(\.effect) == [nil, 1], "the effect's updater names it, the user's none")
  }

  @Test("a log with effect lines replays its updaters as before: the effect lines are skipped")
  func updatersReplayPastEffectLines() async throws {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    let recorder = try recorder(store, clock: clock)
    try await store.dispatch(LookUp(query: "jam"))
    let text = String(decoding: recorder.recordedData, as: UTF8.self)
    #expect(text.hasPrefix(#"{"format":"statestore-action-log","version":2"#))
    #expect(text.contains(#"{"effect":1,"start":"LookUp","after":0"#))
    #expect(text.contains(#"{"effect":1,"value":"first","data":["jam found"]}"#))
    #expect(text.contains(#"{"effect":1,"value":"count","data":1}"#))

    let replayed = try ActionReplayer(registry: .todos())
      .replay(recorder.recordedData, initialState: TodoState())
    #expect(replayed == store.state)
  }

  @Test("a dependency's error and the effect's are recorded with their descriptions")
  func failures() async throws {
    let clock = TestClock()
    let store = makeStore(clock: clock, search: { _ in throw Offline() })
    let recorder = try recorder(store, clock: clock)
    await #expect(throws: Offline.self) { try await store.dispatch(LookUp(query: "x")) }

    let effects = try ActionReplayer(registry: .todos()).effects(recorder.recordedData)
    #expect(effects.map(\.values) == [[.init(label: "first", failure: "Offline()")]])
    #expect(effects.map(\.end) == [.failed("Offline()")])
  }

  @Test("a cancelled effect says what cancelled it: a newer effect, an explicit cancel, a shutdown")
  func cancellations() async throws {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    let recorder = try recorder(store, clock: clock)
    let first = store.launch(SearchTodos(query: "a"))
    await clock.waitForSleepers(1)
    let second = store.launch(SearchTodos(query: "b"))
    await first.finish()
    await clock.waitForSleepers(1)
    store.cancelEffects(identifiedBy: "search")
    await second.finish()
    let third = store.launch(SearchTodos(query: "c"))
    await clock.waitForSleepers(1)
    store.cancelAllEffects()
    await third.finish()
    let fourth = store.launch(SearchTodos(query: "d"))
    await clock.waitForSleepers(1)
    fourth.cancel()
    await fourth.finish()

    let effects = try ActionReplayer(registry: .todos()).effects(recorder.recordedData)
    #expect(
      effects.map(\.end) == [
        .cancelled(by: "a newer SearchTodos (cancelInFlight)"),
        .cancelled(by: "cancelEffects(identifiedBy:)"),
        .cancelled(by: "cancelAllEffects()"),
        .cancelled(by: "its EffectTask's cancel()"),
      ])
    #expect(effects.allSatisfy { $0.values.isEmpty && $0.duration == .zero })
  }

  @Test("an effect kept out by the one in flight is recorded as cancelled by it, at once")
  func keptOut() async throws {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    let recorder = try recorder(store, clock: clock)
    let running = store.launch(SearchTodos(query: "a"))
    await clock.waitForSleepers(1)
    try await store.dispatch(KeptOutSearch(query: "b"))
    running.cancel()
    await running.finish()
    let effects = try ActionReplayer(registry: .todos()).effects(recorder.recordedData)
    #expect(effects.map(\.type) == ["SearchTodos", "KeptOutSearch"])
    #expect(effects.last?.end == .cancelled(by: "SearchTodos in flight (keepInFlight)"))
    #expect(effects.last?.duration == .zero)
  }

  @Test("effects follow diff mode, and a plain log has none")
  func followDiffMode() async throws {
    let plainStore = makeStore()
    let plain = try ActionRecorder(store: plainStore, registry: .todos(), destination: .memory)
    try await plainStore.dispatch(LookUp(query: "x"))
    #expect(!String(decoding: plain.recordedData, as: UTF8.self).contains("effect"))
    #expect(String(decoding: plain.recordedData, as: UTF8.self).contains(#""version":1"#))

    let diffStore = makeStore()
    let diffed = try ActionRecorder(
      store: diffStore, registry: .todos(), destination: .memory,
      options: ActionRecorder.Options(recordsDiffs: true))
    try await diffStore.dispatch(LookUp(query: "x"))
    #expect(try ActionReplayer(registry: .todos()).effects(diffed.recordedData).count == 1)
  }

  @Test("a recorder appending to a log numbers its effects after those already there")
  func numberingContinues() async throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("runs.jsonl")
    for query in ["a", "b"] {
      let store = makeStore()
      let recorder = try ActionRecorder(
        store: store, registry: .todos(), destination: .file(url),
        options: ActionRecorder.Options(recordsEffects: true))
      try await store.dispatch(LookUp(query: query))
      try recorder.stop()
    }
    let effects = try ActionReplayer(registry: .todos()).effects(contentsOf: url)
    #expect(effects.map(\.number) == [1, 2])
    #expect(effects.map(\.afterEntry) == [0, 2])
    let entries = try ActionReplayer(registry: .todos()).entries(contentsOf: url)
    #expect(entries.map(\.effect) == [1, 1, 2, 2])
  }

  @Test("a recorder appending to a version-1 log records no effects there, so 0.1.0 still reads it")
  func versionOneLogGetsNoEffects() async throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("old.jsonl")
    let first = makeStore()
    var recorder: ActionRecorder? = try ActionRecorder(
      store: first, registry: .todos(), destination: .file(url))
    first.dispatch(SetFilter(filter: .open))
    try recorder?.stop()
    recorder = nil

    let second = makeStore()
    let appending = try ActionRecorder(
      store: second, registry: .todos(), destination: .file(url),
      options: ActionRecorder.Options(recordsEffects: true))
    try await second.dispatch(LookUp(query: "x"))
    try appending.stop()
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.hasPrefix(#"{"format":"statestore-action-log","version":1"#))
    #expect(!text.contains(#"{"effect""#))
    #expect(text.split(separator: "\n").count == 4, "the header and three entries")
  }

  @Test(
    "an effect outliving its recorder's stop writes nothing, and a new recorder numbers its own")
  func effectOutlivesRecorder() async throws {
    let clock = TestClock()
    let store = makeStore(clock: clock)
    let first = try recorder(store, clock: clock)
    first.onError = { error in Issue.record("the stopped recorder wrote: \(error)") }
    let search = store.launch(SearchTodos(query: "a"))
    await clock.waitForSleepers(1)
    try first.stop()
    let second = try recorder(store, clock: clock)
    try await store.dispatch(LookUp(query: "b"))
    await clock.advance(by: .seconds(2))
    await search.finish()

    let firstEffects = try ActionReplayer(registry: .todos()).effects(first.recordedData)
    #expect(firstEffects.map(\.type) == ["SearchTodos"])
    #expect(firstEffects.first?.end == nil, "still running when its recorder stopped")
    let secondEffects = try ActionReplayer(registry: .todos()).effects(second.recordedData)
    #expect(secondEffects.map(\.type) == ["LookUp"])
    #expect(secondEffects.first?.values.map(\.label) == ["first", "count"])
  }

  @Test("a stopped recorder records no more effects, and the store's effects run as before")
  func stopDetaches() async throws {
    let store = makeStore()
    let recorder = try recorder(store, clock: TestClock())
    try recorder.stop()
    try await store.dispatch(LookUp(query: "x"))
    #expect(try ActionReplayer(registry: .todos()).effects(recorder.recordedData).isEmpty)
    #expect(store.state.todos.map(\.title) == ["x found"])
  }

  @Test("a damaged effect line is an error naming its line, never a crash")
  func damagedLines() throws {
    let header = #"{"format":"statestore-action-log","version":2}"#
    let cases: [(String, String)] = [
      (
        #"{"effect":1,"start":"Search","after":0}"# + "\n" + #"{"effect":1,"end":"exploded"}"#,
        "exploded"
      ),
      (#"{"effect":2,"value":"a","data":1}"#, "no start line"),
      (#"{"effect":"one","start":"Search"}"#, "\"effect\" must be a number"),
      (#"{"effect":1,"start":"Search","after":"x"}"#, "\"after\" must be an integer"),
      (#"{"effect":1,"start":"Search"}"# + "\n" + #"{"effect":1,"value":"a"}"#, "needs \"data\""),
      (
        #"{"effect":1,"start":"Search"}"# + "\n" + #"{"effect":1,"end":"finished","duration":-1}"#,
        "duration"
      ),
      (#"{"effect":1,"start":"Search"}"# + "\n" + #"{"effect":1,"what":1}"#, "neither a start"),
    ]
    for (lines, reason) in cases {
      let data = Data((header + "\n" + lines + "\n").utf8)
      let lineCount = lines.split(separator: "\n").count + 1
      #expect {
        _ = try ActionReplayer(registry: .todos()).effects(data)
      } throws: { error in
        guard case .malformedLine(let line, let message) = error as? ActionLogError else {
          return false
        }
        return line == lineCount && message.contains(reason)
      }
    }
  }

  // MARK: - Replaying with the recorded values

  @Test("a test store's effects get the recorded values, with no network, and receive sees them")
  func testStoreReplay() async throws {
    let live = makeStore()
    let recorder = try recorder(live, clock: TestClock())
    try await live.dispatch(LookUp(query: "milk"))

    let store = TestStore(
      initialState: TodoState(),
      dependencies: SearchDependencies(
        clock: TestClock(),
        search: { _ in
          Issue.record("the replay called the network")
          return []
        }))
    store.replayEffects(try RecordedEffects(log: recorder.recordedData))
    await store.send(LookUp(query: "milk"))
    await store.receive(AddTodo.self) {
      $0.todos.append(Todo(id: 1, title: "milk found"))
      $0.nextID = 2
    }
    await store.receive(AddLabel.self) {
      $0.labels = ["1"]
      $0.counts["1"] = 1
    }
    await store.finish()
  }

  @Test("a test store's finish fails when recorded values were never asked for")
  func testStoreReportsUnreplayedValues() async {
    let store = TestStore(
      initialState: TodoState(),
      dependencies: SearchDependencies(
        clock: TestClock(), search: { _ in [] }))
    store.replayEffects(
      RecordedEffects([
        RecordedEffect(
          number: 1, type: "LookUp", afterEntry: 2,
          values: [.init(label: "first", json: .array([]))])
      ]))
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      String(describing: issue).contains("LookUp, effect 1, started after entry 2")
    }
  }

  @Test("a value written as JSON text, as a generated test writes it, replays like a recorded one")
  func valuesFromText() async throws {
    let store = makeStore(search: { _ in
      Issue.record("the replay called the network")
      return []
    })
    let effects = RecordedEffects([
      RecordedEffect(
        type: "LookUp",
        values: [
          try .init(label: "first", jsonText: #"["from text"]"#),
          try .init(label: "count", jsonText: "1"),
        ])
    ])
    effects.replay(into: store)
    try await store.dispatch(LookUp(query: "x"))
    #expect(store.state.todos.map(\.title) == ["from text"])
    #expect(effects.unreplayedValues.isEmpty)
    #expect(throws: ActionLogError.self) { try RecordedEffect.Value(label: "x", jsonText: "[1,") }
  }

  @Test("a value never recorded is an error naming the effect and the entry")
  func valueNotRecorded() async throws {
    let store = makeStore(search: { _ in
      Issue.record("the replay called the network")
      return []
    })
    let effects = RecordedEffects([
      RecordedEffect(
        number: 4, type: "LookUp", afterEntry: 3,
        values: [.init(label: "first", json: .array([]))])
    ])
    effects.replay(into: store)
    await #expect(throws: EffectReplayError.self) { try await store.dispatch(LookUp(query: "x")) }
    #expect(store.state.todos.map(\.title) == [""])
    do {
      try await store.dispatch(LookUp(query: "again"))
      Issue.record("a second LookUp, never recorded, ran")
    } catch let error as EffectReplayError {
      #expect(error.problem == .valueNotRecorded)
      #expect(error.description.contains("LookUp (not in the log"))
    }
  }

  @Test("a value asked for under another label, or recorded as a failure, says so")
  func labelsAndFailures() async throws {
    let store = makeStore()
    let effects = RecordedEffects([
      RecordedEffect(
        type: "LookUp", afterEntry: 7, values: [.init(label: "count", json: .number("1"))]),
      RecordedEffect(type: "LookUp", values: [.init(label: "first", failure: "Offline()")]),
    ])
    effects.replay(into: store)
    await #expect {
      try await store.dispatch(LookUp(query: "x"))
    } throws: { error in
      (error as? EffectReplayError)?.problem == .labelMismatch(recorded: "count", asked: "first")
        && (error as? EffectReplayError)?.entry == 7
    }
    await #expect {
      try await store.dispatch(LookUp(query: "x"))
    } throws: { error in
      (error as? RecordedDependencyError)?.failure == "Offline()"
    }
  }

  @Test("recorded values the replay never reaches are listed, naming the effect and the entry")
  func unreplayedValues() async throws {
    let effects = RecordedEffects([
      RecordedEffect(
        number: 2, type: "LookUp", afterEntry: 5,
        values: [
          .init(label: "first", json: .array([])), .init(label: "count", json: .number("0")),
        ]
      ),
      RecordedEffect(number: 3, type: "SearchTodos", afterEntry: 6),
    ])
    #expect(
      effects.unreplayedValues == [
        EffectReplayError(
          effect: "LookUp, effect 2", entry: 5, label: "first",
          problem: .valuesNotReplayed(count: 2))
      ])
    #expect(
      effects.unreplayedValues.first?.description
        == "LookUp, effect 2, started after entry 5: 2 recorded value(s) from \"first\" on were "
        + "never asked for; the replay did not reach the effect, or it stopped earlier than when "
        + "recorded")
  }

  // MARK: - Replaying a session with its effects running

  @Test("a session replays on a live store, its effects started again with their recorded values")
  func replayRunningEffects() async throws {
    let registry = ActionLogRegistry<TodoState>.todos().registerEffect(LookUp.self)
    let live = makeStore()
    let recorder = try ActionRecorder(
      store: live, registry: registry, destination: .memory,
      options: ActionRecorder.Options(recordsEffects: true))
    live.dispatch(SetFilter(filter: .open))
    try await live.dispatch(LookUp(query: "milk"))
    live.dispatch(ToggleTodo(id: 1))
    try await live.dispatch(LookUp(query: "tea"))
    let log = recorder.recordedData
    #expect(String(decoding: log, as: UTF8.self).contains(#""payload":{"query":"milk"}"#))

    let offline = makeStore(search: { _ in
      Issue.record("the replay called the network")
      return []
    })
    let state = try await ActionReplayer(registry: registry).replayRunningEffects(log, on: offline)
    #expect(state == live.state)
    #expect(state.todos.map(\.title) == ["milk found", "tea found"])
    #expect(offline.effectLog == nil, "the feed is taken off the store after the replay")
  }

  @Test("an effect that cannot start again, or goes another way, is an error, never a hang")
  func replayRunningEffectsFails() async throws {
    let live = makeStore()
    let recorder = try ActionRecorder(
      store: live, registry: ActionLogRegistry<TodoState>.todos().registerEffect(LookUp.self),
      destination: .memory,
      options: ActionRecorder.Options(recordsEffects: true))
    live.dispatch(SetFilter(filter: .open))
    try await live.dispatch(LookUp(query: "milk"))
    let log = recorder.recordedData

    await #expect {
      _ = try await ActionReplayer(registry: .todos()).replayRunningEffects(log, on: makeStore())
    } throws: { error in
      guard let error = error as? EffectReplayError else { return false }
      return error.problem
        == .cannotStart(reason: "its type is not registered (registerEffect(_:name:))")
        && error.entry == 1 && error.effect == "LookUp, effect 1"
    }
    // Another effect under the recorded name: it asks for values the log does not have.
    let impostor = ActionLogRegistry<TodoState>.todos().registerEffect(
      LookUpOnce.self, name: "LookUp")
    await #expect {
      _ = try await ActionReplayer(registry: impostor).replayRunningEffects(log, on: makeStore())
    } throws: { error in
      (error as? EffectReplayError)?.problem == .valueNotRecorded
    }
  }

  @Test("a wrapped function records each call, and an effect of a scope reaches its root's log")
  func wrappedFunctionInScope() async throws {
    let store = Store<ScopedSearchState, SearchDependencies>(
      initialState: ScopedSearchState(),
      dependencies: SearchDependencies(clock: TestClock(), search: { ["\($0) found"] }))
    let registry = ActionLogRegistry<ScopedSearchState>()
    registry.scope("todos", state: \.todos).register(AddTodo.self)
    let recorder = try ActionRecorder(
      store: store, registry: registry, destination: .memory,
      options: ActionRecorder.Options(recordsEffects: true))
    let scope = store.scope(state: \.todos, dependencies: \.self)
    try await scope.dispatch(SearchTwice(query: "jam"))
    let effects = try ActionReplayer(registry: registry).effects(recorder.recordedData)
    #expect(store.state.todos.todos.count == 2)
    #expect(effects.map(\.type) == ["SearchTwice"])
    #expect(
      effects.first?.values == [
        .init(label: "search", json: .array([.string("jam found")])),
        .init(label: "search", json: .array([.string("jam again found")])),
      ])
  }

  @Test("without a log, recorded calls the dependency and nothing records")
  func withoutLog() async throws {
    let store = makeStore()
    try await store.dispatch(LookUp(query: "tea"))
    #expect(store.state.todos.map(\.title) == ["tea found"])
    #expect(store.effectLog == nil)
  }
}
