// Written by SessionShrinker: 10 recorded entries shrunk to 2 steps.
// The check: /chores[id=1000]/done should be true.

import StateStoreTesting
import Testing

@MainActor
@Test func shrunkImportSession() async throws {
  let store = TestStore(initialState: ChoresState(), dependencies: ImportSource.offline)

  // Effect 2 (ImportChore), dispatched at SessionShrinkingTests/ImportSession.swift:77.
  // Started again with the values it recorded; its updaters are received.
  store.replayEffects(
    RecordedEffects([
      RecordedEffect(
        type: "ImportChore",
        values: [
          .init(label: "mirror", failure: "MirrorDown()"),
          try .init(label: "titles", jsonText: #"["Water plants","Sweep"]"#),
        ])
    ]))
  try await store.send(decoded(ImportChore.self, json: #"{"id":1000}"#))
  // Entry 5.
  await store.receive(AddChore.self) {
    $0.chores.insert(try decoded(json: #"{"done":false,"id":1000,"title":"Water plants"}"#), at: 0)
  }
  // Entry 6.
  await store.receive(SetChoreDone.self) {
    $0.chores[id: 1000]?.done = true
  }
  await store.finish()

  // Entry 9.
  // Expected: /chores[id=1000]/done should be true.
  // The code the session was recorded on fails here.
  try await store.send(decoded(RenameChore.self, json: #"{"id":1000,"title":""}"#)) {
    $0.chores[id: 1000]?.title = ""
  }
}
