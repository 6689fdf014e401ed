// Written by SessionShrinker: 300 recorded entries shrunk to 3 steps.
// The check: /chores[id=1000]/done should be true.

import StateStoreTesting
import Testing

@MainActor
@Test func shrunkChoresSession() async throws {
  let store = TestStore(initialState: ChoresState(), dependencies: ())

  // Entry 39.
  try await store.send(decoded(AddChore.self, json: #"{"id":1000,"title":""}"#)) {
    $0.chores.insert(try decoded(json: #"{"done":false,"id":1000,"title":""}"#), at: 0)
  }

  // Entry 157.
  try await store.send(decoded(SetChoreDone.self, json: #"{"done":true,"id":1000}"#)) {
    $0.chores[id: 1000]?.done = true
  }

  // Entry 273.
  // Expected: /chores[id=1000]/done should be true.
  // The code the session was recorded on fails here.
  try await store.send(decoded(RenameChore.self, json: #"{"id":1000,"title":""}"#))
}
