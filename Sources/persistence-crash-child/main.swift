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
//
// For the test of two processes sharing a directory (SharedDirectoryTests.swift):
//
//     persistence-crash-child share <directory> <first> <count>
//
// It opens the store, prints `opened N`, waits for a line on its standard input, then appends
// first, first+1, … in two halves of <count>/2, flushing every 7. After the first half it waits
// until its store holds <count> entries (its half and the other process's), after the second
// until it holds 2 × <count>; then it prints `items A,B,…` (its state, in order) and closes.

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
if arguments.first == "share" {
  await share(Array(arguments.dropFirst()))
  exit(0)
}
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

/// The `share` mode: appends alongside another process, see the top of this file.
@MainActor
func share(_ arguments: [String]) async {
  guard arguments.count == 3, let first = Int(arguments[1]), let count = Int(arguments[2]),
    count > 1, count.isMultiple(of: 2), first >= 0, first <= Int.max - count
  else {
    fail("usage: persistence-crash-child share <directory> <first> <even count>")
  }
  let registry = ActionLogRegistry<Numbers>()
  registry.register(Append.self)
  var options = JournalOptions(snapshotInterval: 23)
  options.pollInterval = .milliseconds(10)
  do {
    let journaled = try await JournaledStore.open(
      directory: URL(fileURLWithPath: arguments[0]), registry: registry, options: options)
    journaled.store.onUnhandledError = { error, _ in fail("\(error)") }
    say("opened \(journaled.lastSequence)")
    _ = readLine()
    let half = count / 2
    for (index, value) in (first..<first + count).enumerated() {
      if index == half {
        try await journaled.flush()
        await journaled.waitUntil(holding: count)
      }
      journaled.store.dispatch(Append(value: value))
      if index % 7 == 6 { try await journaled.flush() }
    }
    try await journaled.flush()
    await journaled.waitUntil(holding: 2 * count)
    say("items " + journaled.store.state.items.map(String.init).joined(separator: ","))
    try await journaled.close()
  } catch {
    fail("\(error)")
  }
}

extension JournaledStore where S == Numbers {
  /// Returns once the state holds `count` items, as the store hears the other process.
  func waitUntil(holding count: Int) async {
    guard store.state.items.count < count else { return }
    let (reached, reachedSink) = AsyncStream.makeStream(of: Void.self)
    let token = store.addListener { _, new in
      if new.items.count >= count { reachedSink.finish() }
    }
    for await _ in reached {}
    token.cancel()
  }
}
