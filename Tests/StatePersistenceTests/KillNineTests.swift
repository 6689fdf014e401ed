import Foundation
import StatePersistence
import StateStore
import Testing

/// A real process, `persistence-crash-child`, appends to a journaled store and is killed with
/// SIGKILL, again and again on the same directory, at moments a seeded generator picks.
@Suite("Kill -9 of a real process")
struct KillNineTests {
  /// How many appends the child makes between flushes: not a divisor of its snapshot interval,
  /// so that kills land at every distance from a snapshot.
  static let flushEvery = 7

  /// The child, built next to the test bundle in the build products directory.
  static let child: URL? = {
    let candidates = [
      Bundle.main.executableURL?.deletingLastPathComponent(),
      Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL,
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ]
    return candidates.compactMap { $0?.appendingPathComponent("persistence-crash-child") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }()

  @Test(
    "killed mid-append 50 times, the store reopens each time to a prefix holding every entry reported durable, and goes on"
  )
  func killMidAppend() async throws {
    let executable = try #require(Self.child, "persistence-crash-child was not built")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("kill-nine-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    var random = SplitMix(seed: 0x6B69_6C6C_2D39)
    var recovered = 0
    var durable = 0
    for run in 0..<50 {
      let threshold = Int.random(in: 1...150, using: &random)
      let outcome = try await ChildRun.killed(
        executable: executable, directory: directory, afterDurable: threshold
      ).get()
      #expect(outcome.unexpected == nil, "run \(run): the child printed something else")
      #expect(outcome.opened == recovered, "run \(run): the child opened a different state")
      #expect(outcome.signaled, "run \(run): the child ended before the kill: \(outcome.error)")
      durable = max(durable, outcome.durable)
      let reopened = try await JournaledStore.read(
        directory: directory, registry: numbersRegistry())
      #expect(reopened.damage == nil, "run \(run)")
      #expect(reopened.lastSequence >= durable, "run \(run): an entry reported durable was lost")
      // Compared apart, so that a failure names the first wrong entry, not thousands of them.
      let isPrefix = reopened.state == numbers(upTo: reopened.lastSequence)
      let wrong = reopened.state.items.indices.first { reopened.state.items[$0] != $0 + 1 }
      #expect(
        isPrefix,
        """
        run \(run): not a prefix: \(reopened.state.items.count) items for \
        \(reopened.lastSequence) entries, the first wrong one at \(wrong.map { $0 + 1 } ?? 0)
        """)
      recovered = reopened.lastSequence
    }
    #expect(durable >= 50 * Self.flushEvery)
    try await Self.expectAppending(after: recovered, in: directory)
  }

  /// Opens the store in this process, expects `count` entries, and appends one more.
  @MainActor
  static func expectAppending(after count: Int, in directory: URL) async throws {
    let journaled = try await JournaledStore.open(directory: directory, registry: numbersRegistry())
    journaled.store.onUnhandledError = { error, _ in Issue.record("\(error)") }
    #expect(journaled.store.state == numbers(upTo: count))
    journaled.store.dispatch(Append(value: count + 1))
    try await journaled.close()
    let reopened = try await JournaledStore.read(directory: directory, registry: numbersRegistry())
    #expect(reopened.damage == nil)
    #expect(reopened.state == numbers(upTo: count + 1))
  }
}

/// One run of the child, read a line at a time from its standard output.
private struct ChildRun {
  /// What the run printed and how it ended.
  struct Outcome {
    /// The entries the child's open recovered.
    var opened = -1
    /// The last entry the child reported durable.
    var durable = 0
    /// Whether SIGKILL ended it.
    var signaled = false
    /// What it wrote to standard error.
    var error = ""
    /// A line it printed that is not a report.
    var unexpected: String?
  }

  /// Runs the child in `directory` until it reported `count` more durable entries than it
  /// opened with, then kills it; on a thread of its own, since reading the child's output
  /// blocks, and a blocked thread of the concurrency pool (two on a two-core machine) would
  /// stall every other test.
  static func killed(executable: URL, directory: URL, afterDurable count: Int) async -> Result<
    Outcome, any Error
  > {
    await withCheckedContinuation { continuation in
      Thread {
        continuation.resume(
          returning: Result {
            var child = try ChildRun(executable: executable, directory: directory)
            return child.killed(afterDurable: count)
          })
      }.start()
    }
  }

  let process = Process()
  let output = Pipe()
  let errors = Pipe()
  var buffer = Data()

  init(executable: URL, directory: URL) throws {
    process.executableURL = executable
    process.arguments = [directory.path, "1000000", "\(KillNineTests.flushEvery)"]
    process.standardOutput = output
    process.standardError = errors
    try process.run()
  }

  /// Reads the child's reports until `count` more entries than it opened with are durable,
  /// then kills it with SIGKILL (a child of the test runner ignores SIGTERM) and waits.
  mutating func killed(afterDurable count: Int) -> Outcome {
    var outcome = Outcome()
    readReports(until: count, into: &outcome)
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    outcome.signaled =
      process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    if !outcome.signaled {
      outcome.error = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
    return outcome
  }

  private mutating func readReports(until count: Int, into outcome: inout Outcome) {
    guard let first = nextLine(), let opened = Self.number(in: first, after: "opened ") else {
      return
    }
    outcome.opened = opened
    outcome.durable = opened
    while outcome.durable - opened < count, let line = nextLine() {
      // Flushes may report out of order: every one is true, the highest says the most.
      guard let durable = Self.number(in: line, after: "durable ") else {
        outcome.unexpected = line
        return
      }
      outcome.durable = max(outcome.durable, durable)
    }
  }

  /// The next line the child printed, waiting for it; nil once the child closed its output.
  private mutating func nextLine() -> String? {
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
        buffer.removeSubrange(buffer.startIndex...newline)
        return line
      }
      let data = output.fileHandleForReading.availableData
      if data.isEmpty { return nil }
      buffer.append(data)
    }
  }

  private static func number(in line: String, after prefix: String) -> Int? {
    line.hasPrefix(prefix) ? Int(line.dropFirst(prefix.count)) : nil
  }
}
