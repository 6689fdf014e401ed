// A child process for the kill -9 test of StatePersistence (Tests/StatePersistenceTests/
// KillNineTests.swift), built only for it:
//
//     persistence-crash-child <directory> <appends> <flush-every>
//
// It opens a journaled store in <directory>, prints `opened N` (the entries recovered), then
// appends N+1, N+2, … up to <appends> more, starting a flush after every <flush-every> appends
// and printing `durable M` once it returns (entries 1...M are durable), while appending on.
// Then it closes and prints `closed M`. The test kills it with SIGKILL somewhere on the way.
//
// Its types have the shape of the test's `Numbers` and `Append` (Support/Fixtures.swift), so
// the test reads the directory with its own registry.

import ActionLog
import Foundation
import StatePersistence
import StateStore

struct Numbers: State, Codable {
  var items: [Int] = []
  var settings = Settings()
}

struct Settings: State, Codable {
  var theme = "light"
}

struct Append: StateUpdater, Codable {
  let value: Int

  func updateState(_ state: inout Numbers) {
    state.items.append(value)
  }
}

/// Writes `line` to standard output at once, unbuffered, for the test reading the pipe.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("persistence-crash-child: \(message)\n".utf8))
  exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 3, let appends = Int(arguments[2]), let flushEvery = Int(arguments[3]),
  appends > 0, flushEvery > 0
else {
  fail("usage: persistence-crash-child <directory> <appends> <flush-every>")
}
let registry = ActionLogRegistry<Numbers>()
registry.register(Append.self)
let directory = URL(fileURLWithPath: arguments[1])
do {
  // Small snapshot intervals, so that kills land during compaction too.
  let journaled = try await JournaledStore.open(
    directory: directory, registry: registry,
    options: JournalOptions(snapshotInterval: 23, snapshotByteThreshold: 16 << 10))
  let start = journaled.lastSequence
  guard start <= Int.max - appends else { fail("entry \(start) leaves no room to append") }
  say("opened \(start)")
  // Each flush runs while the next appends are made, so that the writer is always busy and a
  // kill lands while entries are encoded, written, synchronized or compacted into a snapshot,
  // not just after a flush returned. At most `outstanding` flushes are waiting, so that the
  // child stays ahead of the disk by a few batches, no more.
  let outstanding = 16
  var flushes: [Task<Void, Never>] = []
  for count in 1...appends {
    journaled.store.dispatch(Append(value: start + count))
    guard count % flushEvery == 0 else { continue }
    let sequence = journaled.lastSequence
    flushes.append(
      Task {
        do {
          try await journaled.flush()
          say("durable \(sequence)")
        } catch {
          fail("\(error)")
        }
      })
    if flushes.count > outstanding { await flushes.removeFirst().value }
  }
  try await journaled.close()
  say("closed \(journaled.lastSequence)")
} catch {
  fail("\(error)")
}
