import ActionLog
import Foundation
import StateStore
import StateStoreTesting
import Testing

@Suite("What if: replaying a log with entries skipped")
struct SkipTests {
  private func log(_ updaters: [any StateUpdater<TodoState>]) throws -> Data {
    var writer = ActionLogWriter(registry: .todos())
    for updater in updaters { try writer.append(updater) }
    return writer.data
  }

  @Test("Skipping an entry reports the first entry that differs and the field-by-field diff")
  func skipsAndReports() throws {
    let data = try log(sampleSession())
    let report = try ActionReplayer(registry: .todos())
      .replay(data, initialState: TodoState(), skipping: [3, 99])
    #expect(report.skipped == [3])
    #expect(report.missing == [99])
    #expect(report.firstDifference == 3)
    #expect(report.recordedState.todos[id: 1]?.done == true)
    #expect(report.finalState.todos[id: 1]?.done == false)
    #expect(report.differences == ["todos[0].done: true → false"])
  }

  @Test("An entry whose change a later one undoes differs only in between")
  func undoneLater() throws {
    let data = try log([
      AddTodo(title: "a"), ToggleTodo(id: 1), ToggleTodo(id: 1), AddLabel(label: "x"),
    ])
    let report = try ActionReplayer(registry: .todos())
      .replay(data, initialState: TodoState(), skipping: [2, 3])
    #expect(report.firstDifference == 2, "after entry 2 only one replay has toggled")
    #expect(report.differences.isEmpty, "the second toggle undid the first")
    let none = try ActionReplayer(registry: .todos())
      .replay(data, initialState: TodoState(), skipping: [])
    #expect(none.firstDifference == nil)
    #expect(none.finalState == none.recordedState)
  }

  @Test("Skipping an AddTodo shifts the later entries: the diff says so")
  func skippedAdd() throws {
    let data = try log([AddTodo(title: "a"), AddTodo(title: "b"), ToggleTodo(id: 2)])
    let report = try ActionReplayer(registry: .todos())
      .replay(data, initialState: TodoState(), skipping: [1])
    #expect(report.firstDifference == 1)
    #expect(report.finalState.todos.elements.map(\.title) == ["b"])
    #expect(report.finalState.todos[id: 1]?.done == false, "b got id 1: ToggleTodo(2) finds none")
    #expect(report.differences.contains("nextID: 3 → 2"))
  }
}

@Suite("assertSkipping")
struct SkipAssertionTests {
  private func fixture(_ directory: TemporaryDirectory) throws -> URL {
    var writer = ActionLogWriter(registry: .todos())
    for updater in sampleSession() { try writer.append(updater) }
    let url = directory.file("session.jsonl")
    try writer.data.write(to: url)
    return url
  }

  @Test("Passes when skipping changes the final state exactly as said")
  func passes() throws {
    let directory = try TemporaryDirectory()
    let url = try fixture(directory)
    try assertSkipping(
      [3], fixture: url, registry: .todos(), initialState: TodoState(),
      differences: ["todos[0].done: true → false"])
    try assertSkipping(
      [6], fixture: url, registry: .todos(), initialState: TodoState(),
      differences: ["filter: .open → .all"])
  }

  @Test("Records an issue for other differences, and for entries the log does not have")
  func fails() throws {
    let directory = try TemporaryDirectory()
    let url = try fixture(directory)
    try withKnownIssue {
      try assertSkipping(
        [3], fixture: url, registry: .todos(), initialState: TodoState(), differences: [])
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("todos[0].done: true → false") }
    }
    try withKnownIssue {
      try assertSkipping(
        [42], fixture: url, registry: .todos(), initialState: TodoState(), differences: [])
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("the log has no entries 42") }
    }
  }
}
