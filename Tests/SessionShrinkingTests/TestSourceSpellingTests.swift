import StateStore
import Testing

@testable import ActionLog

/// A state with every kind of field a change can name.
private struct Shelf: State, Codable, Hashable {
  var chores = TrackedArray<Chore>()
  var tags: [String] = []
  var note: String?
  var size = 0
}

/// One of the changes below, by number.
private struct EditShelf: StateUpdater, Codable {
  var step: Int

  func updateState(_ shelf: inout Shelf) {
    switch step {
    case 0:
      shelf.chores.append(Chore(id: 1, title: "a"))
      shelf.chores.append(Chore(id: 2, title: "b"))
      shelf.tags = ["x"]
      shelf.note = "n"
    case 1: shelf.tags.append("y")
    case 2: shelf.tags.remove(at: 0)
    case 3: shelf.note = nil
    case 4: shelf.chores.move(id: 2, to: 0)
    case 5: shelf.chores[id: 1] = nil
    default:
      shelf.size = 2
      shelf.chores[id: 2]?.title = "line\n\"quoted\""
    }
  }
}

@Suite("The written test spells each kind of change as an assignment to its field")
struct TestSourceSpellingTests {
  @Test("members, optionals, arrays, identified elements, a move and escaped strings")
  func spellsEachChange() {
    let entries = (0...6).map {
      ActionLogEntry<Shelf>(
        sequence: $0 + 1, line: $0 + 2, type: "EditShelf", updater: EditShelf(step: $0))
    }
    let session = ShrunkSession(
      initialState: Shelf(), steps: entries.map { SessionStep(entries: [$0]) },
      recordedEntryCount: 7, checksRun: 1, checkSummary: "a check", expectedFinalState: nil)
    let source = session.testSource()
    for line in [
      "let store = TestStore(initialState: Shelf(), dependencies: ())",
      ##"$0.chores.insert(try decoded(json: #"{"done":false,"id":1,"title":"a"}"#), at: 0)"##,
      #"$0.note = "n""#,
      #"$0.tags.insert("x", at: 0)"#,
      #"$0.tags.insert("y", at: 1)"#,
      "$0.tags.remove(at: 0)",
      "$0.note = nil",
      ##"$0.chores = try decoded(json: #"[{"done":false,"id":2,"title":"b"},"##,
      "$0.chores[id: 1] = nil",
      "$0.size = 2",
      #"$0.chores[id: 2]?.title = "line\n\"quoted\"""#,
      "// The check failed after this step (a check): correct its expectation.",
    ] {
      #expect(source.contains(line), "\(line)\nin:\n\(source)")
    }
  }
}
