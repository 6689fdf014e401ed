import Foundation
import SideEffects
import StateStore
import StateStoreTesting
import Testing

/// Adds chore ``id``, waits a second on the clock, then marks it done: what the user does in
/// that second comes between its updaters.
struct SlowImport: SideEffect, Codable {
  var id: Int

  func sideEffect(_ context: SideEffectContext<ChoresState, TestClock>) async throws {
    await context.dispatch(AddChore(id: id, title: "Slow"))
    try await context.dependencies.sleep(for: .seconds(1))
    await context.dispatch(SetChoreDone(id: id, done: true))
  }
}

@Suite("The test a shrunk session writes receives what a registered effect dispatched")
@MainActor
struct EffectStepTests {
  @Test("a registered effect's updaters: its recorded values, a send of it, a receive of each")
  func registeredEffectIsReceived() async throws {
    let shrunk = try await ImportSession.shrunk()
    #expect(
      shrunk.steps.map { $0.entries.map(\.type) } == [
        ["AddChore", "SetChoreDone"], ["RenameChore"],
      ])
    #expect(
      (shrunk.entries.first?.updater as? AddChore)?.title == "Water plants",
      "an effect's updater keeps its payload: the effect dispatches it again")
    let source = shrunk.testSource(ImportSession.options)
    let expected = [
      "  store.replayEffects(",
      "    RecordedEffects([",
      "        type: \"ImportChore\",",
      "          .init(label: \"mirror\", failure: \"MirrorDown()\"),",
      ##"          try .init(label: "titles", jsonText: #"["Water plants","Sweep"]"#),"##,
      ##"  try await store.send(decoded(ImportChore.self, json: #"{"id":1000}"#))"##,
      "  await store.receive(AddChore.self) {",
      "  await store.receive(SetChoreDone.self) {",
      "    $0.chores[id: 1000]?.done = true",
      "  await store.finish()",
      "  try await store.send(decoded(RenameChore.self",
    ]
    var rest = Substring(source)
    for line in expected {
      guard let range = rest.range(of: line) else {
        Issue.record("missing, or out of order: \(line)\n\(source)")
        return
      }
      rest = rest[range.upperBound...]
    }
    #expect(!source.contains("sent here directly"))
  }

  @Test("an effect whose type is not registered: its updaters are sent, with a comment")
  func unregisteredEffectIsSent() async throws {
    let log = try await ImportSession.record()
    let shrunk = try PlantedBug.$isPlanted.withValue(true) {
      try SessionShrinker(registry: .chores()).shrink(
        log, until: ChoresSession.targetStaysDone())
    }
    let source = shrunk.testSource()
    #expect(!source.contains("replayEffects"))
    #expect(!source.contains("store.receive"))
    #expect(source.contains("Dispatched by ImportChore"))
    #expect(source.contains("try await store.send(decoded(SetChoreDone.self"))
  }

  @Test("a recorded session keeps what the log says of each effect, and which one each entry names")
  func recordedSessionKeepsEffects() async throws {
    let session = try RecordedSession(
      try await ImportSession.record(), registry: ImportSession.registry())
    #expect(session.effects.map(\.number) == [1, 2])
    #expect(session.effects.map(\.type) == ["ImportChore", "ImportChore"])
    #expect(session.effects.map { $0.payload?.text() } == [#"{"id":2}"#, #"{"id":1000}"#])
    #expect(session.effects.map(\.end) == [.finished, .finished])
    #expect(
      session.effects[1].values == [
        RecordedEffect.Value(label: "mirror", failure: "MirrorDown()"),
        try RecordedEffect.Value(label: "titles", jsonText: #"["Water plants","Sweep"]"#),
      ])
    #expect(
      session.entries.map(\.effectIndex) == [nil, 0, 0, nil, 1, 1, nil, nil, nil, nil])
  }

  @Test("a registered effect whose updaters an entry came between: its updaters are sent")
  func interleavedEffectIsSent() async throws {
    let registry = ActionLogRegistry<ChoresState>.chores().registerEffect(SlowImport.self)
    let log = try await PlantedBug.$isPlanted.withValue(true) {
      let clock = TestClock()
      let store = Store(initialState: ChoresState(), dependencies: clock)
      let recorder = try ActionRecorder(
        store: store, registry: registry, destination: .memory,
        options: .init(recordsDiffs: true, effectClock: TestClock()))
      let task = store.launch(SlowImport(id: ChoresSession.target))
      await clock.waitForSleepers()
      store.dispatch(AddChore(id: 1, title: "noise"))
      await clock.advance(by: .seconds(1))
      await task.finish()
      store.dispatch(RenameChore(id: ChoresSession.target, title: "Renamed"))
      try recorder.stop()
      return recorder.recordedData
    }
    let shrunk = try PlantedBug.$isPlanted.withValue(true) {
      try SessionShrinker(registry: registry).shrink(log, until: ChoresSession.targetStaysDone())
    }
    #expect(
      shrunk.steps.map { $0.entries.map(\.type) } == [
        ["AddChore"], ["SetChoreDone"], ["RenameChore"],
      ])
    let source = shrunk.testSource()
    #expect(!source.contains("replayEffects"))
    #expect(!source.contains("store.receive"))
    #expect(source.contains("sent here directly"))
  }
}
