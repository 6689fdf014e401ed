import Foundation
import StateStore
import StateStoreTesting
import Testing

@Suite("SessionShrinker: a recorded session shrunk to the smallest one that still fails")
@MainActor
struct SessionShrinkerTests {
  @Test("a 300-entry session whose bug needs 3 entries shrinks to those 3, payloads shrunk")
  func shrinksToTheEntriesTheBugNeeds() throws {
    let log = try ChoresSession.record()
    let shrunk = try PlantedBug.$isPlanted.withValue(true) {
      try SessionShrinker(registry: .chores()).shrink(
        log, until: ChoresSession.targetStaysDone())
    }
    #expect(shrunk.recordedEntryCount == 300)
    #expect(shrunk.steps.count <= 10)
    #expect(shrunk.entries.map(\.type) == ["AddChore", "SetChoreDone", "RenameChore"])
    #expect(shrunk.entries.compactMap { ($0.updater as? AddChore)?.title } == [""])
    #expect(shrunk.entries.compactMap { ($0.updater as? RenameChore)?.title } == [""])
  }

  @Test("a pointer by position looks at the same element in every sub-session")
  func followsAPositionByIdentity() throws {
    try PlantedBug.$isPlanted.withValue(true) {
      let log = try ChoresSession.recording { store in
        store.dispatch(AddChore(id: 1, title: "first"))
        store.dispatch(AddChore(id: 2, title: "second"))
        store.dispatch(SetChoreDone(id: 2, done: true))
        store.dispatch(AddChore(id: 3, title: "third"))
        store.dispatch(RenameChore(id: 2, title: "renamed"))
      }
      // Chore 2 stands at position 1: without chore 1, position 1 is another chore or none.
      let shrunk = try SessionShrinker(registry: .chores()).shrink(
        log, until: .expect("/chores/1/done", equals: .bool(true)))
      #expect(shrunk.entries.map(\.sequence) == [2, 3, 5])
      #expect(shrunk.testSource().contains("$0.chores[id: 2]?.done = true"))
    }
  }

  @Test("the same log and check give the same result, and the result is 1-minimal")
  func isDeterministicAndMinimal() throws {
    let log = try ChoresSession.record()
    try PlantedBug.$isPlanted.withValue(true) {
      let shrinker = SessionShrinker(registry: .chores())
      let first = try shrinker.shrink(log, until: ChoresSession.targetStaysDone())
      let second = try shrinker.shrink(log, until: ChoresSession.targetStaysDone())
      #expect(first.entries.map(\.sequence) == second.entries.map(\.sequence))
      #expect(first.testSource() == second.testSource())
      // Without any one of its steps, no entry reopens the done chore.
      for left in first.entries.indices {
        let kept = first.entries.enumerated().filter { $0.offset != left }.map(\.element)
        var state = ChoresState()
        for entry in kept.dropLast() { entry.updater.updateState(&state) }
        let before = state.chores[id: ChoresSession.target]?.done
        kept.last?.updater.updateState(&state)
        #expect(!(before == true && state.chores[id: ChoresSession.target]?.done == false))
      }
    }
  }

  @Test("a session recorded on fixed code and replayed on buggy code shrinks to its divergence")
  func shrinksADivergence() throws {
    let log = try ChoresSession.record(bugPlanted: false)
    let shrunk = try PlantedBug.$isPlanted.withValue(true) {
      try SessionShrinker(registry: .chores()).shrink(log, until: .divergesFromRecordedDiffs)
    }
    // The first rename of a done chore: added, marked done, renamed.
    #expect(shrunk.entries.map(\.type) == ["AddChore", "SetChoreDone", "RenameChore"])
    // The test expects the recorded change: the title, and nothing else.
    let source = shrunk.testSource()
    #expect(source.contains("]?.title = \"Renamed chore"))
    #expect(!source.contains("?.done = false"))
  }

  @Test("a last line without its newline keeps its recorded diff")
  func readsTheDiffOfALastLineWithoutANewline() throws {
    let log = try ChoresSession.recording { store in
      store.dispatch(AddChore(id: 1, title: "a"))
      store.dispatch(SetChoreDone(id: 1, done: true))
      store.dispatch(RenameChore(id: 1, title: "b"))
    }.dropLast()
    #expect(log.last == UInt8(ascii: "}"))
    let shrunk = try PlantedBug.$isPlanted.withValue(true) {
      try SessionShrinker(registry: .chores()).shrink(log, until: .divergesFromRecordedDiffs)
    }
    #expect(shrunk.entries.map(\.sequence) == [1, 2, 3])
  }

  @Test("a predicate on the state keeps what makes it true")
  func shrinksAPredicate() throws {
    let log = try ChoresSession.record()
    let shrunk = try PlantedBug.$isPlanted.withValue(true) {
      try SessionShrinker(registry: .chores()).shrink(
        log,
        until: .failing("the renamed chore is open") { state in
          state.chores[id: ChoresSession.target].map { $0.title == "Water the plants" && !$0.done }
            ?? false
        })
    }
    #expect(shrunk.entries.map(\.type) == ["AddChore", "RenameChore"])
    #expect(shrunk.testSource().contains("// The check failed after this step"))
  }

  @Test("a thrown error is a failure to keep")
  func shrinksAThrownError() throws {
    struct Unwatered: Error {}
    let log = try ChoresSession.record()
    let shrunk = try SessionShrinker(registry: .chores()).shrink(
      log,
      until: .throwing("no chore is called \"Water the plants\"") { state in
        if state.chores.contains(where: { $0.title == "Water the plants" }) { throw Unwatered() }
      })
    #expect(shrunk.entries.map(\.type) == ["AddChore", "RenameChore"])
  }

  @Test("the updaters an effect dispatched in a row stay together")
  func keepsAnEffectsUpdatersTogether() throws {
    let log = try ChoresSession.recording { store in
      store.dispatch(AddChore(id: 1, title: "noise"))
      DispatchCause.$current.withValue(DispatchCause("ImportChores")) {
        store.dispatch(AddChore(id: 2, title: "imported"))
        store.dispatch(SetChoreDone(id: 2, done: true))
      }
      store.dispatch(RenameChore(id: 1, title: "more noise"))
    }
    let shrunk = try SessionShrinker(registry: .chores()).shrink(
      log, until: .expect("/chores[id=2]/done", equals: .bool(false)))
    #expect(shrunk.steps.map { $0.entries.map(\.type) } == [["AddChore", "SetChoreDone"]])
    #expect(shrunk.testSource().contains("Dispatched by ImportChores: sent here directly"))
  }

  @Test(
    "in a log that records effects, two runs of one effect with the same cause are two steps, and effect lines are skipped"
  )
  func keepsEachEffectRunApart() throws {
    let log = try ChoresSession.recording { store in
      DispatchCause.$current.withValue(DispatchCause("ImportChores")) {
        store.dispatch(AddChore(id: 1, title: "first import"))
        store.dispatch(AddChore(id: 2, title: "imported"))
        store.dispatch(AddChore(id: 3, title: "second import"))
        store.dispatch(SetChoreDone(id: 2, done: true))
      }
    }
    // The same lines as a recorder of effects writes them: each entry names its effect run.
    var text = String(decoding: log, as: UTF8.self)
    for (sequence, effect) in [(1, 1), (2, 1), (3, 2), (4, 2)] {
      text = text.replacingOccurrences(
        of: #"{"seq":\#(sequence),"#, with: #"{"seq":\#(sequence),"effect":\#(effect),"#)
    }
    text = text.replacingOccurrences(
      of: #"{"seq":3,"#,
      with: #"{"effect":2,"start":"ImportChores","after":2}"# + "\n" + #"{"seq":3,"#)
    let shrunk = try SessionShrinker(registry: .chores()).shrink(
      Data(text.utf8), until: .expect("/chores[id=2]/done", equals: .bool(false)))
    #expect(
      shrunk.steps.map { $0.entries.map(\.type) } == [
        ["AddChore", "AddChore"], ["AddChore", "SetChoreDone"],
      ])
    #expect(shrunk.steps.map { $0.entries.map(\.effect) } == [[1, 1], [2, 2]])
  }

  @Test("a session that passes, a damaged log and a bad pointer are errors that say so")
  func reportsBadInput() throws {
    let log = try ChoresSession.record(length: 40)
    let shrinker = SessionShrinker(registry: .chores())
    #expect(throws: SessionShrinkError.sessionPasses(check: "/chores[id=99]/done should be true")) {
      try shrinker.shrink(log, until: .expect("/chores[id=99]/done", equals: .bool(true)))
        .recordedEntryCount
    }
    var damaged = log
    damaged.append(Data("{\"seq\":99,\"type\":\"Nope\",\"payload\":{}}\n".utf8))
    #expect {
      try shrinker.shrink(damaged, until: ChoresSession.targetStaysDone())
    } throws: { error in
      "\(error)".contains("Nope") && "\(error)".contains("line")
    }
    #expect(throws: SessionShrinkError.self) {
      try SessionCheck<ChoresState>.expect("chores/0", equals: .null)
    }
    #expect(throws: SessionShrinkError.noRecordedDiffs) {
      let log = try ChoresSession.recording(options: .init(checkpointInterval: 100)) { store in
        store.dispatch(AddChore(id: 1, title: "a"))
      }
      _ = try shrinker.shrink(log, until: .divergesFromRecordedDiffs)
    }
  }
}
