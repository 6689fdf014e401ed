import ActionLog
import Foundation
import StateStore
import Testing

/// A state that can be recorded but not compared.
struct Uncomparable: State, Codable {
  var value = 0
}

struct Bump: StateUpdater, Codable {
  func updateState(_ state: inout Uncomparable) { state.value += 1 }
}

@Suite("Checkpoints")
@MainActor
struct CheckpointTests {
  @Test("Checkpoints are written on start and every N entries, and verified on replay")
  func writtenAndVerified() throws {
    let log = try recordedLog(sampleSession(), options: .init(checkpointInterval: 4))
    let checkpoints = lines(of: log).filter { $0.hasPrefix(#"{"checkpoint":"#) }
    #expect(
      checkpoints.map { $0.prefix(16) } == [
        #"{"checkpoint":0,"#, #"{"checkpoint":4,"#, #"{"checkpoint":8,"#,
      ])
    let summary = try ActionReplayer(registry: .todos())
      .replaySummary(log, initialState: TodoState())
    #expect(summary.checkpointsVerified == 3)
    #expect(summary.finalState == applied(sampleSession()))
  }

  @Test("An updater whose behaviour changed is caught at the first checkpoint after it")
  func changedBehaviourDiverges() throws {
    let log = try recordedLog(sampleSession(), options: .init(checkpointInterval: 1))
    let registry = ActionLogRegistry<TodoState>()
      .register(AddTodo.self).register(RemoveTodo.self).register(AddLabel.self)
      .register(SetFilter.self).register(ToggleTodoChanged.self, name: "ToggleTodo")
    do {
      _ = try ActionReplayer(registry: registry).replay(log, initialState: TodoState())
      Issue.record("the replay should have diverged")
    } catch ActionLogError.diverged(let divergence) {
      #expect(divergence.sequence == 3)
      #expect(divergence.entryType == "ToggleTodo")
      #expect(divergence.lastMatchingSequence == 2)
      #expect(divergence.differences == [#"todos[0].title: "milk" → "milk!""#])
      let text = divergence.description
      #expect(text.contains("after entry 3 (ToggleTodo, line"))
      #expect(text.contains(#"todos[0].title: "milk" → "milk!""#))
      let entryLine = try #require(divergence.entryLine)
      #expect(lines(of: log)[entryLine - 1].hasPrefix(#"{"seq":3,"type":"ToggleTodo""#))
    }
  }

  @Test("With sparse checkpoints the divergence names the range since the last match")
  func sparseCheckpointsNameRange() throws {
    let log = try recordedLog(sampleSession(), options: .init(checkpointInterval: 5))
    let registry = ActionLogRegistry<TodoState>()
      .register(AddTodo.self).register(RemoveTodo.self).register(AddLabel.self)
      .register(SetFilter.self).register(ToggleTodoChanged.self, name: "ToggleTodo")
    #expect {
      try ActionReplayer(registry: registry).replay(log, initialState: TodoState())
    } throws: { error in
      guard case .diverged(let divergence) = error as? ActionLogError else { return false }
      return divergence.sequence == 5 && divergence.lastMatchingSequence == 0
        && divergence.description.contains("entries 1…5")
    }
  }

  @Test("Replaying from another initial state than the recorded one is caught before entry 1")
  func wrongInitialState() throws {
    let log = try recordedLog(sampleSession(), options: .init(checkpointInterval: 100))
    let other = applied([AddTodo(title: "stray")])
    #expect {
      try ActionReplayer(registry: .todos()).replay(log, initialState: other)
    } throws: { error in
      guard case .diverged(let divergence) = error as? ActionLogError else { return false }
      return divergence.sequence == 0 && divergence.entryLine == nil
        && divergence.description.contains("before the first entry")
    }
  }

  @Test("Checkpoints compare states, not bytes: Set and Dictionary order does not matter")
  func orderIndependent() throws {
    let text = [
      #"{"format":"statestore-action-log","version":1}"#,
      #"{"seq":1,"type":"AddLabel","payload":{"label":"b"}}"#,
      #"{"seq":2,"type":"AddLabel","payload":{"label":"a"}}"#,
      #"{"seq":3,"type":"AddLabel","payload":{"label":"c"}}"#,
      #"{"checkpoint":3,"state":{"todos":[],"nextID":1,"filter":"all","labels":["c","a","b"],"counts":{"c":1,"b":1,"a":1}}}"#,
    ].joined(separator: "\n")
    let summary = try ActionReplayer(registry: .todos())
      .replaySummary(Data(text.utf8), initialState: TodoState())
    #expect(summary.checkpointsVerified == 1)
  }

  @Test("Checkpoints can be ignored")
  func ignored() throws {
    let log = try recordedLog(sampleSession(), options: .init(checkpointInterval: 2))
    let other = applied([AddTodo(title: "stray")])
    let summary = try ActionReplayer(registry: .todos(), options: .init(checkpoints: .ignore))
      .replaySummary(log, initialState: other)
    #expect(summary.checkpointsVerified == 0)
    #expect(summary.entriesApplied == 10)
  }

  @Test("A checkpoint that does not decode names its line and path")
  func undecodableCheckpoint() {
    let text = [
      #"{"format":"statestore-action-log","version":1}"#,
      #"{"checkpoint":0,"state":{"todos":[],"nextID":"one","filter":"all","labels":[],"counts":{}}}"#,
    ].joined(separator: "\n")
    #expect {
      try ActionReplayer(registry: .todos()).replay(Data(text.utf8), initialState: TodoState())
    } throws: { error in
      guard case .undecodableCheckpoint(2, let path, _) = error as? ActionLogError else {
        return false
      }
      return path == "state.nextID"
    }
  }

  @Test("A checkpoint numbered for another entry is malformed")
  func misplacedCheckpoint() {
    let text = [
      #"{"format":"statestore-action-log","version":1}"#,
      #"{"seq":1,"type":"SetFilter","payload":{"filter":"done"}}"#,
      #"{"checkpoint":7,"state":{}}"#,
    ].joined(separator: "\n")
    #expect {
      try ActionReplayer(registry: .todos()).replay(Data(text.utf8), initialState: TodoState())
    } throws: { error in
      guard case .malformedLine(3, _) = error as? ActionLogError else { return false }
      return true
    }
  }

  @Test("Checkpoints of a state that is not Equatable are refused clearly")
  func needsEquatableState() throws {
    let registry = ActionLogRegistry<Uncomparable>().register(Bump.self)
    var writer = ActionLogWriter(registry: registry)
    try writer.append(Bump())
    try writer.appendCheckpoint(Uncomparable(value: 1))
    #expect(
      throws: ActionLogError.checkpointsNeedCodableState(
        line: 3, stateType: "ActionLogTests.Uncomparable")
    ) {
      try ActionReplayer(registry: registry).replay(writer.data, initialState: Uncomparable())
    }
    let state = try ActionReplayer(registry: registry, options: .init(checkpoints: .ignore))
      .replay(writer.data, initialState: Uncomparable())
    #expect(state.value == 1)
  }
}
