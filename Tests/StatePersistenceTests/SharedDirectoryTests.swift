import Foundation
import StatePersistence
import StateStore
import Testing

/// Two real processes, `persistence-crash-child share`, append to one directory at once.
@Suite("Two real processes on one directory")
struct SharedDirectoryTests {
  /// How many values each process appends.
  static let count = 500

  @Test(
    "two processes append 500 each at once: both see all 1,000 in the same order, interleaved, and reopening gives them",
    .timeLimit(.minutes(2)))
  func twoProcesses() async throws {
    let executable = try #require(KillNineTests.child, "persistence-crash-child was not built")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("shared-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let firsts = [1, 10_001]
    let outcomes = try await SharingChildren.run(
      executable: executable, directory: directory, firsts: firsts, count: Self.count
    ).get()
    for outcome in outcomes {
      #expect(outcome.status == 0, "a child failed: \(outcome.errors)")
    }
    let seen = outcomes.map(\.items)
    #expect(seen[0].count == 2 * Self.count)
    #expect(seen[0] == seen[1], "the two processes saw different orders")
    let items = seen[0]
    for first in firsts {
      // Each process's own values, in its own order, and every one of them.
      #expect(
        items.filter { (first..<first + Self.count).contains($0) }
          == Array(first..<first + Self.count))
    }
    // Each process appended its second half only after hearing the other's first half.
    let half = Self.count / 2
    for (own, other) in [(firsts[0], firsts[1]), (firsts[1], firsts[0])] {
      let otherFirstHalf = items.lastIndex { (other..<other + half).contains($0) } ?? items.count
      let ownSecondHalf =
        items.firstIndex { (own + half..<own + Self.count).contains($0) } ?? -1
      #expect(otherFirstHalf < ownSecondHalf, "the appends did not interleave")
    }
    let reopened = try await JournaledStore.read(directory: directory, registry: numbersRegistry())
    #expect(reopened.damage == nil)
    #expect(reopened.state.items == items)
  }
}

/// Both children of one run, started together, read to the end on a thread of their own.
private enum SharingChildren {
  struct Outcome: Sendable {
    var items: [Int] = []
    var status: Int32 = -1
    var errors = ""
  }

  static func run(executable: URL, directory: URL, firsts: [Int], count: Int) async -> Result<
    [Outcome], any Error
  > {
    await withCheckedContinuation { continuation in
      Thread {
        continuation.resume(
          returning: Result {
            try runBlocking(
              executable: executable, directory: directory, firsts: firsts, count: count)
          })
      }.start()
    }
  }

  private static func runBlocking(
    executable: URL, directory: URL, firsts: [Int], count: Int
  ) throws -> [Outcome] {
    var children: [(process: Process, input: Pipe, output: Pipe, errors: Pipe)] = []
    for first in firsts {
      let process = Process()
      process.executableURL = executable
      process.arguments = ["share", directory.path, "\(first)", "\(count)"]
      let (input, output, errors) = (Pipe(), Pipe(), Pipe())
      process.standardInput = input
      process.standardOutput = output
      process.standardError = errors
      try process.run()
      children.append((process, input, output, errors))
    }
    // A child that fails leaves the other waiting for its entries forever: end it too.
    let identifiers = children.map(\.process.processIdentifier)
    for (index, child) in children.enumerated() {
      let others = identifiers.enumerated().filter { $0.offset != index }.map(\.element)
      child.process.terminationHandler = { process in
        if process.terminationStatus != 0 { for other in others { kill(other, SIGKILL) } }
      }
    }
    for child in children {
      child.input.fileHandleForWriting.write(Data("go\n".utf8))
    }
    return children.map { child in
      let text = String(
        decoding: child.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      child.process.waitUntilExit()
      var outcome = Outcome()
      outcome.status = child.process.terminationStatus
      outcome.errors = String(
        decoding: child.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      for line in text.split(separator: "\n") where line.hasPrefix("items ") {
        outcome.items = line.dropFirst("items ".count).split(separator: ",").compactMap {
          Int($0)
        }
      }
      return outcome
    }
  }
}
