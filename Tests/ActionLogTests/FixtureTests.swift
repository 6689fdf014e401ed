import ActionLog
import Foundation
import StateStore
import StateStoreTesting
import Testing

/// The URL of a log in `Tests/ActionLogTests/Fixtures`.
func fixture(_ name: String) throws -> URL {
  try #require(
    Bundle.module.url(forResource: name, withExtension: "jsonl", subdirectory: "Fixtures"))
}

/// The state the hand-written fixture ends in, spelled out.
private var handWrittenFinalState: TodoState {
  var state = TodoState()
  state.todos = TrackedArray([
    Todo(id: 1, title: "buy milk", done: true), Todo(id: 2, title: "write report"),
  ])
  state.nextID = 3
  state.filter = .open
  state.labels = ["home"]
  state.counts = ["home": 1]
  return state
}

@Suite("Fixtures and replay assertions")
struct FixtureTests {
  @Test("The hand-written log, written from the documented format, replays")
  func handWrittenLog() throws {
    let url = try fixture("hand-written")
    let summary = try ActionReplayer(registry: .todos())
      .replaySummary(contentsOf: url, initialState: TodoState())
    #expect(summary.finalState == handWrittenFinalState)
    #expect(summary.entriesApplied == 5)
    #expect(summary.checkpointsVerified == 2)
    let entries = try ActionReplayer(registry: .todos()).entries(contentsOf: url)
    #expect(entries.first?.cause == DispatchCause("user: add"))
    #expect(entries.first?.time == Date(timeIntervalSince1970: 1_763_688_600))
  }

  @Test("assertReplay passes on the expected state and returns it")
  func assertReplayPasses() throws {
    let state = try assertReplay(
      fixture: fixture("hand-written"), registry: .todos(), initialState: TodoState(),
      equals: handWrittenFinalState)
    #expect(state?.nextID == 3)
    try assertReplay(
      fixture: fixture("hand-written"), registry: .todos(), initialState: TodoState(),
      matches: OpenTodos(titles: ["write report"]))
  }

  @Test("assertReplay records an issue with the diff when the state differs")
  func assertReplayFailsWithDiff() throws {
    var expected = handWrittenFinalState
    expected.todos[id: 2]?.done = true
    let url = try fixture("hand-written")
    try withKnownIssue {
      try assertReplay(
        fixture: url, registry: .todos(), initialState: TodoState(), equals: expected)
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("todos[1].done: true → false")
    }
    try withKnownIssue {
      try assertReplay(
        fixture: url, registry: .todos(), initialState: TodoState(),
        matches: OpenTodos(titles: []))
    } matching: { issue in
      String(describing: issue).contains(#"titles[0]: added "write report""#)
    }
  }

  @Test("assertReplay records a checkpoint divergence as an issue")
  func assertReplayReportsDivergence() throws {
    let url = try fixture("hand-written")
    let start = applied([AddTodo(title: "stray")])
    var state: TodoState?
    try withKnownIssue {
      state = try assertReplay(
        fixture: url, registry: .todos(), initialState: start, equals: handWrittenFinalState)
    } matching: { issue in
      String(describing: issue).contains("before the first entry")
    }
    #expect(state == nil)
  }

  @Test("assertReplay throws when the log cannot be read")
  func assertReplayThrowsOnBadLog() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("bad.jsonl")
    try Data("garbage\n".utf8).write(to: url)
    #expect(throws: ActionLogError.self) {
      try assertReplay(
        fixture: url, registry: .todos(), initialState: TodoState(), equals: TodoState())
    }
  }
}
