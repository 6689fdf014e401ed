import ActionLog
import Foundation
import Inspector
import StateStore
import Synchronization
import Testing

@Suite("One action log written by several processes and recorders")
struct SharedLogTests {
  @Test("Six todo-cli --record runs at once: the log reads whole, with every entry")
  func concurrentProcesses() throws {
    let harness = try InspectorHarness()
    let todo = try #require(EndToEndTests.todo)
    let directory = harness.directory
    let store = harness.directory.appendingPathComponent("store").path
    let log = harness.directory.appendingPathComponent("session.jsonl").path
    let processes = 6
    let commands = 4
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: processes) { process in
      for command in 1...commands {
        let title = "process \(process) command \(command)"
        do {
          let result = try InspectorHarness.runProcess(
            todo, ["--store", store, "--record", log, "add", title], in: directory)
          if result.status != 0 {
            failures.withLock { $0.append("\(title): exit \(result.status): \(result.error)") }
          }
        } catch {
          failures.withLock { $0.append("\(title): \(error)") }
        }
      }
    }
    #expect(failures.withLock { $0 } == [])
    let summary = harness.run("--summary", log)
    #expect(summary.status == 0)
    #expect(summary.error == "", "the log reads whole")
    let timeline = harness.run("--json", log)
    #expect(timeline.status == 0)
    #expect(timeline.error == "")
    var titles: [String] = []
    var sequences: [Int] = []
    for line in timeline.output.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      if let sequence = object?["seq"] as? Int { sequences.append(sequence) }
      if let title = (object?["payload"] as? [String: Any])?["title"] as? String {
        titles.append(title)
      }
    }
    // A run that finds the store changed by another process reloads it first: that entry is
    // recorded too, so there may be more entries than commands.
    #expect(sequences == Array(1...max(1, sequences.count)))
    let expected = (0..<processes).flatMap { process in
      (1...commands).map { "process \(process) command \($0)" }
    }
    #expect(titles.sorted() == expected.sorted())
  }

  @Test("Diff-mode recorders writing one file in turn: the inspector shows every state")
  @MainActor
  func interleavedDiffRecorders() throws {
    let harness = try InspectorHarness()
    let log = harness.directory.appendingPathComponent("shared.jsonl")
    let registry = ActionLogRegistry<Counters>().register(Count.self)
    let stores = (0..<3).map { _ in Store<Counters, Void>() }
    let recorders = try stores.map { store in
      try ActionRecorder(
        store: store, registry: registry, destination: .file(log),
        options: .init(recordsDiffs: true))
    }
    for _ in 1...3 {
      for (writer, store) in stores.enumerated() { store.dispatch(Count(name: "w\(writer)")) }
    }
    for recorder in recorders { try recorder.stop() }
    let summary = harness.run("--summary", log.path)
    #expect(summary.status == 0)
    #expect(summary.error == "", "the log reads whole")
    #expect(summary.output.hasPrefix("entries: 9 (seq 1…9), unrecorded: 0, with diffs: 9"))
    // Entry 9 is the third count of writer 2: its own store's state, not the others'. Each
    // entry's state is its own writer's, though the next writer's checkpoint, which follows
    // it in the file, carries the same number.
    for entry in 1...9 {
      let (writer, round) = ((entry - 1) % 3, (entry - 1) / 3 + 1)
      let at = harness.run("--json", "--at", "\(entry)", log.path)
      #expect(at.status == 0, "\(at.error)")
      #expect(at.output == #"{"counts":{"w\#(writer)":\#(round)}}"# + "\n", "entry \(entry)")
    }
    let diff = harness.run("--diff", "4", "7", log.path)
    #expect(diff.output == "replace /counts/w0: 2 → 3\n", "writer 0's second and third counts")
    let changes = harness.run("--changes-of", "/counts/w1", log.path)
    #expect(changes.status == 0, "\(changes.error)")
    #expect(changes.output.split(separator: "\n").count == 3, "\(changes.output)")
  }
}

/// Named counters.
struct Counters: State, Codable, Equatable {
  var counts: [String: Int] = [:]
}

/// Adds one to the counter `name`.
struct Count: StateUpdater, Codable {
  var name: String
  func updateState(_ state: inout Counters) {
    state.counts[name, default: 0] += 1
  }
}
