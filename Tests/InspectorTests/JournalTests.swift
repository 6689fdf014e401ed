import ActionLog
import Foundation
import StatePersistence
import StateStore
import Testing

/// A `StatePersistence` journal opened in the inspector: its directory reads as a log.
@Suite("Inspecting a StatePersistence journal")
@MainActor
struct JournalTests {
  struct Tally: State, Codable, Equatable {
    var total = 0
    var added: [Int] = []
  }

  struct Add: StateUpdater, Codable {
    var amount: Int
    func updateState(_ state: inout Tally) {
      state.total += amount
      state.added.append(amount)
    }
  }

  /// Writes a journal of `count` additions of 1, 2, 3… with a snapshot every 3 entries, and
  /// returns its directory.
  private func writeJournal(in harness: InspectorHarness, count: Int) async throws -> URL {
    let directory = harness.directory.appendingPathComponent("journal")
    let journaled = try await JournaledStore<Tally, Void>.open(
      directory: directory, registry: ActionLogRegistry<Tally>().register(Add.self),
      options: JournalOptions(snapshotInterval: 3))
    // A flush after each entry, so that the writer asks for a snapshot after the third.
    for amount in 1...count {
      journaled.store.dispatch(Add(amount: amount))
      try await journaled.flush()
    }
    try await journaled.close()
    return directory
  }

  /// Every file of `directory` with its bytes.
  private func contents(of directory: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
      files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
    }
    return files
  }

  @Test("The snapshot is the first checkpoint, the journal's entries follow, nothing is written")
  func readsAsALog() async throws {
    let harness = try InspectorHarness()
    let directory = try await writeJournal(in: harness, count: 7)
    let before = try contents(of: directory)
    let timeline = harness.run("--json", directory.path)
    #expect(timeline.status == 0, "\(timeline.error)")
    let records = try timeline.output.split(separator: "\n").map {
      try JSONParser.parse(Array($0.utf8))
    }
    let snapshot = try #require(records.first?["checkpoint"]?.intValue, "\(timeline.output)")
    #expect(snapshot >= 3 && snapshot < 7, "a snapshot was taken after entry 3 or more")
    let sequences = records.dropFirst().compactMap { $0["seq"]?.intValue }
    #expect(sequences == Array((snapshot + 1)...7))
    #expect(records.dropFirst().allSatisfy { $0["type"]?.stringValue == "Add" })
    #expect(records.last?["payload"]?.text() == #"{"amount":7}"#)

    let state = harness.run("--json", "--at", String(snapshot), directory.path)
    #expect(state.status == 0, "\(state.error)")
    let total = (1...snapshot).reduce(0, +)
    let expected =
      #"{"added":["# + (1...snapshot).map(String.init).joined(separator: ",")
      + #"],"total":\#(total)}"#
    #expect(state.output == expected + "\n")

    let summary = harness.run("--json", "--summary", directory.path)
    #expect(summary.status == 0)
    #expect(summary.output.contains(#""entries":\#(7 - snapshot)"#), "\(summary.output)")
    #expect(try contents(of: directory) == before, "the inspector wrote nothing")
  }

  @Test("A damaged segment: what came before is printed, then exit 1 naming the file and line")
  func damagedSegment() async throws {
    let harness = try InspectorHarness()
    let directory = try await writeJournal(in: harness, count: 7)
    let segments = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix("journal-") }.sorted {
        $0.count == $1.count ? $0 < $1 : $0.count < $1.count
      }
    let last = try #require(segments.last)
    let url = directory.appendingPathComponent(last)
    var bytes = try Data(contentsOf: url)
    let lineCount = bytes.split(separator: 0x0A).count
    bytes.append(
      contentsOf: "{\"seq\":8,\"type\":\"Add\",\"payload\":{\"amount\":8}}\nnot json\n".utf8)
    try bytes.write(to: url)

    let result = harness.run("--json", directory.path)
    #expect(result.status == 1)
    #expect(result.error.contains("\(last) line \(lineCount + 2): not JSON"), "\(result.error)")
    #expect(result.output.contains(#""seq":8,"#), "the entries before the damage are printed")
  }

  @Test("A directory that is no journal is refused with exit 1")
  func notAJournal() throws {
    let harness = try InspectorHarness()
    let result = harness.run(harness.directory.path)
    #expect(result.status == 1)
    #expect(result.error.contains("no StatePersistence journal"), "\(result.error)")
  }
}
