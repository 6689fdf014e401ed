import ActionLog
import Foundation
import StatePersistence
import StateStore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A directory in the temporary directory, unique to this process, removed when the runner goes.
final class TemporaryDirectory {
  let url: URL

  init(_ name: String) {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "store-bench-\(ProcessInfo.processInfo.processIdentifier)-\(name)")
    try? FileManager.default.removeItem(at: url)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// A fresh, empty subdirectory `name`.
  func fresh(_ name: String) -> URL {
    let child = url.appendingPathComponent(name)
    try? FileManager.default.removeItem(at: child)
    return child
  }
}

/// The real system calls, with the `fsync`s and `rename`s counted: how many batches a journal
/// committed, how many times a snapshot file was written.
final class CountingCalls: SystemCalls {
  let base = POSIXCalls()
  let synchronizations = Atomic<Int>(0)
  let renames = Atomic<Int>(0)

  func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallFailure) -> Int32 {
    try base.open(path, flags: flags, mode: mode)
  }

  func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int)
    throws(SystemCallFailure) -> Int
  {
    try base.read(descriptor, into: buffer, at: offset)
  }

  func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallFailure) -> Int
  {
    try base.write(descriptor, bytes, at: offset)
  }

  func synchronize(_ descriptor: Int32) throws(SystemCallFailure) {
    synchronizations.add(1, ordering: .relaxed)
    try base.synchronize(descriptor)
  }

  func truncate(_ descriptor: Int32, to length: Int) throws(SystemCallFailure) {
    try base.truncate(descriptor, to: length)
  }

  func size(_ descriptor: Int32) throws(SystemCallFailure) -> Int { try base.size(descriptor) }

  func lock(_ descriptor: Int32, operation: Int32) throws(SystemCallFailure) {
    try base.lock(descriptor, operation: operation)
  }

  func close(_ descriptor: Int32) throws(SystemCallFailure) { try base.close(descriptor) }

  func rename(_ from: String, to: String) throws(SystemCallFailure) {
    renames.add(1, ordering: .relaxed)
    try base.rename(from, to: to)
  }

  func unlink(_ path: String) throws(SystemCallFailure) { try base.unlink(path) }

  func makeDirectory(_ path: String, mode: mode_t) throws(SystemCallFailure) {
    try base.makeDirectory(path, mode: mode)
  }

  func contentsOfDirectory(_ path: String) throws(SystemCallFailure) -> [String] {
    try base.contentsOfDirectory(path)
  }
}

/// Dispatches `count` W1 toggles to `store`, cycling through `todos` todos from `start`.
///
/// - Returns: The todo the next toggle starts from.
@MainActor
func dispatchToggles(
  _ count: Int, to store: Store<AppState, Void>, from start: Int = 0, todos: Int = todoCount
) -> Int {
  var index = start
  for _ in 0..<count {
    store.dispatch(ToggleTodo(id: index))
    index += 1
    if index == todos { index = 0 }
  }
  return index
}

/// Opens a journaled store of ``AppState`` with 1,000 todos in `directory`.
@MainActor
func openJournal(
  _ directory: URL, options: JournalOptions = JournalOptions(),
  system: (any SystemCalls)? = nil
) async throws(PersistenceError) -> JournaledStore<AppState, Void> {
  guard let system else {
    // The application's own call, so that the store's journaling runs as code specialised
    // for the application's state, as it does in an app.
    return try await JournaledStore.open(
      directory: directory, initialState: AppState(todoCount: todoCount),
      registry: makeRegistry(), options: options)
  }
  return try await JournaledStore.open(
    directory: directory.path, initialState: AppState(todoCount: todoCount), dependencies: (),
    registry: makeRegistry(), options: options, system: system)
}

/// Options that never compact: P2 and P3 measure the journal alone.
let uncompacted = JournalOptions(snapshotInterval: Int.max / 2, snapshotByteThreshold: Int.max / 2)

/// P1 through the library: W1 dispatched to a journaled store (default options: a snapshot
/// every 1,000 entries), timed on the store's actor; the journal is flushed between
/// repetitions, untimed.
@MainActor
final class JournaledToggleRunner: Runner {
  let name = "store"
  let directory = TemporaryDirectory("p1")
  var journaled: JournaledStore<AppState, Void>?
  var next = 0
  var failures: [String] = []

  func settle() async {
    do {
      if let journaled {
        try await journaled.flush()
      } else {
        journaled = try await openJournal(directory.url)
      }
    } catch {
      failures.append("the journal failed: \(error)")
    }
  }

  func perform(_ operations: Int) {
    guard let store = journaled?.store else { return }
    next = dispatchToggles(operations, to: store, from: next)
  }

  func verify(operations: Int) -> [String] {
    guard let journaled else { return failures + ["the journal never opened"] }
    var failures = self.failures
    failures += ToggleExpectation(todoCount: todoCount, operations: operations)
      .check(doneFlags: journaled.store.state.todos.map(\.done))
    if journaled.lastSequence != operations {
      failures.append("journaled \(journaled.lastSequence) entries of \(operations)")
    }
    return failures
  }
}

/// P2 through the library: `entries` W1 toggles dispatched to a fresh journaled store, then one
/// `flush()`.
///
/// One operation is the whole batch, reported per entry. Counts the batches the writer
/// committed (its `fsync`s), which sizes the floor's.
@MainActor
final class DurableStoreRunner: Runner {
  let name = "store"
  let entries: Int
  let directory = TemporaryDirectory("p2")
  let calls = CountingCalls()
  var ready: JournaledStore<AppState, Void>?
  var runs = 0
  /// Entries per `fsync` in the last run.
  var batchSize = 1
  var finalState = AppState()
  var failures: [String] = []

  init(entries: Int) {
    self.entries = entries
  }

  var entriesPerOperation: Int { entries }

  func settle() async {
    guard ready == nil else { return }
    runs += 1
    do {
      ready = try await openJournal(
        directory.fresh("run-\(runs)"), options: uncompacted, system: calls)
    } catch {
      failures.append("opening failed: \(error)")
    }
  }

  func perform(_ operations: Int) async {
    for _ in 0..<operations {
      if ready == nil { await settle() }
      guard let journaled = ready else { return }
      ready = nil
      let syncsBefore = calls.synchronizations.load(ordering: .relaxed)
      _ = dispatchToggles(entries, to: journaled.store)
      do {
        try await journaled.flush()
        try await journaled.close()
      } catch {
        failures.append("flushing failed: \(error)")
      }
      // One fsync per batch, plus the directory's when the segment was created.
      let batches = calls.synchronizations.load(ordering: .relaxed) - syncsBefore - 1
      batchSize = max(1, entries / max(1, batches))
      finalState = journaled.store.state
    }
  }

  func verify(operations: Int) -> [String] {
    failures
      + ToggleExpectation(todoCount: todoCount, operations: entries)
      .check(doneFlags: finalState.todos.map(\.done))
  }
}

/// A journal line as plain `Codable` code writes it: what the P2 floor encodes, with the same
/// keys as the library's lines.
struct PlainJournalLine: Codable {
  let seq: Int
  let type: String
  let time: Double
  let payload: ToggleTodo
}

/// P2's floor: the plain mutation, bare `JSONEncoder` on each entry, and one `pwrite` and one
/// `fsync` per batch of the size the store's writer used in its last run.
@MainActor
final class DurableWriteFloor: Runner {
  let name = "write + fsync floor"
  let entries: Int
  let store: DurableStoreRunner
  let directory = TemporaryDirectory("p2-floor")
  var state = PlainState(todoCount: todoCount)
  var bytes = 0
  var failures: [String] = []

  init(entries: Int, sizedLike store: DurableStoreRunner) {
    self.entries = entries
    self.store = store
  }

  var entriesPerOperation: Int { entries }

  func perform(_ operations: Int) {
    try? FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
    let path = directory.url.appendingPathComponent("journal.jsonl").path
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let batchSize = store.batchSize
    for _ in 0..<operations {
      state = PlainState(todoCount: todoCount)
      bytes = 0
      let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
      guard descriptor >= 0 else {
        failures.append("cannot open \(path)")
        return
      }
      var buffer: [UInt8] = []
      var offset = 0
      var index = 0
      for sequence in 1...entries {
        toggleTodo(&state, at: index)
        do {
          let line = PlainJournalLine(
            seq: sequence, type: "ToggleTodo", time: Date().timeIntervalSince1970,
            payload: ToggleTodo(id: index))
          buffer += try encoder.encode(line)
          buffer.append(0x0A)
        } catch {
          failures.append("encoding failed: \(error)")
        }
        if sequence % batchSize == 0 || sequence == entries {
          let written = buffer.withUnsafeBytes {
            pwrite(descriptor, $0.baseAddress, $0.count, offset)
          }
          if written != buffer.count || fsync(descriptor) != 0 {
            failures.append("writing failed")
          }
          offset += buffer.count
          buffer.removeAll(keepingCapacity: true)
        }
        index += 1
        if index == todoCount { index = 0 }
      }
      bytes = offset
      _ = close(descriptor)
    }
  }

  func verify(operations: Int) -> [String] {
    var failures = self.failures
    failures += ToggleExpectation(todoCount: todoCount, operations: entries)
      .check(doneFlags: state.todos.map(\.done))
    if bytes < entries * 40 { failures.append("only \(bytes) bytes written for \(entries)") }
    return failures
  }
}

/// P3's directory: `entries` W1 toggles journaled, with a snapshot after 99 % of them and the
/// rest in one segment after it; written once, before timing.
@MainActor
final class OpeningFixture {
  let entries: Int
  let directory = TemporaryDirectory("p3")
  var snapshotAt: Int { entries * 99 / 100 }
  var isPrepared = false
  var failures: [String] = []

  init(entries: Int) {
    self.entries = entries
  }

  func prepare() async {
    guard !isPrepared else { return }
    isPrepared = true
    do {
      var journaled = try await openJournal(directory.url, options: uncompacted)
      try await dispatch(through: journaled, from: 1, to: snapshotAt - 1)
      try await journaled.close()
      // Reopened with an interval of 1, the store asks for a snapshot with the next entry.
      journaled = try await openJournal(directory.url, options: JournalOptions(snapshotInterval: 1))
      try await dispatch(through: journaled, from: snapshotAt, to: snapshotAt)
      try await journaled.close()
      journaled = try await openJournal(directory.url, options: uncompacted)
      try await dispatch(through: journaled, from: snapshotAt + 1, to: entries)
      try await journaled.close()
    } catch {
      failures.append("writing the journal failed: \(error)")
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []
    let expected = ["journal-\(snapshotAt + 1).jsonl", "lock", "snapshot.json"]
    if names.sorted() != expected {
      failures.append("expected the files \(expected), found \(names.sorted())")
    }
  }

  private func dispatch(through journaled: JournaledStore<AppState, Void>, from: Int, to: Int)
    async throws(PersistenceError)
  {
    guard from <= to else { return }
    for sequence in from...to {
      journaled.store.dispatch(ToggleTodo(id: (sequence - 1) % todoCount))
      if sequence % 100_000 == 0 { try await journaled.flush() }
    }
    try await journaled.flush()
  }
}

/// P3 through the library: `JournaledStore.open` of the fixture's directory (then `close()`).
@MainActor
final class OpeningStoreRunner: Runner {
  let name = "store"
  let fixture: OpeningFixture
  var finalState = AppState()
  var lastSequence = 0
  var failures: [String] = []

  init(fixture: OpeningFixture) {
    self.fixture = fixture
  }

  func settle() async { await fixture.prepare() }

  func perform(_ operations: Int) async {
    for _ in 0..<operations {
      do {
        let journaled = try await openJournal(fixture.directory.url, options: uncompacted)
        finalState = journaled.store.state
        lastSequence = journaled.lastSequence
        try await journaled.close()
      } catch {
        failures.append("opening failed: \(error)")
      }
    }
  }

  func verify(operations: Int) -> [String] {
    var failures = self.failures + fixture.failures
    failures += ToggleExpectation(todoCount: todoCount, operations: fixture.entries)
      .check(doneFlags: finalState.todos.map(\.done))
    if lastSequence != fixture.entries {
      failures.append("opened at entry \(lastSequence) of \(fixture.entries)")
    }
    return failures
  }
}

/// The value line of a snapshot of ``AppState``, decoded by plain code.
struct PlainSnapshot: Codable {
  let counter: Int
  let todos: [Todo]
}

/// P3's floor: decode the snapshot's value with bare `JSONDecoder`, then replay the segment
/// after it by hand (see ``replayPlainly(_:into:decoder:)``).
@MainActor
final class OpeningFloor: Runner {
  let name = "decode + replay floor"
  let fixture: OpeningFixture
  var state = PlainState(todoCount: 0)
  var replayed = 0
  var failures: [String] = []

  init(fixture: OpeningFixture) {
    self.fixture = fixture
  }

  func settle() async { await fixture.prepare() }

  func perform(_ operations: Int) {
    let decoder = JSONDecoder()
    let snapshot = fixture.directory.url.appendingPathComponent("snapshot.json")
    let segment = fixture.directory.url.appendingPathComponent(
      "journal-\(fixture.snapshotAt + 1).jsonl")
    for _ in 0..<operations {
      do {
        let lines = try Data(contentsOf: snapshot).split(separator: 0x0A)
        guard lines.count == 3 else { throw CocoaError(.fileReadCorruptFile) }
        let value = try decoder.decode(PlainSnapshot.self, from: lines[1])
        state = PlainState(todoCount: 0)
        state.counter = value.counter
        state.todos = value.todos
        replayed = try replayPlainly(Data(contentsOf: segment), into: &state, decoder: decoder)
      } catch {
        failures.append("decoding failed: \(error)")
      }
    }
  }

  func verify(operations: Int) -> [String] {
    var failures = self.failures
    if replayed != fixture.entries - fixture.snapshotAt {
      failures.append("replayed \(replayed) entries")
    }
    failures += ToggleExpectation(todoCount: todoCount, operations: fixture.entries)
      .check(doneFlags: state.todos.map(\.done))
    return failures
  }
}

/// How many todos make P4's slice about 1 MB of JSON.
let megabyteTodos = 16_000

/// P4 through the library: 1,000 W1 toggles, then `flush()`, on a store whose whole state
/// (16,000 todos, about 1 MB) a `SnapshotFile` keeps.
///
/// The coalescing interval is an hour, so the flush must write the file exactly once, which is
/// checked; figures per change.
@MainActor
final class CoalescedSaveRunner: Runner {
  static let changes = 1_000
  let name = "store"
  let directory = TemporaryDirectory("p4")
  let calls = CountingCalls()
  let store = Store<AppState, Void>(initialState: AppState(todoCount: megabyteTodos))
  let file: SnapshotFile<AppState>
  var next = 0
  var failures: [String] = []

  init() {
    try? FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
    file = SnapshotFile(
      path: directory.url.appendingPathComponent("state.json").path,
      options: .init(coalescingInterval: .seconds(3_600)), system: calls)
    file.keepSaving(\.self, of: store)
  }

  var entriesPerOperation: Int { Self.changes }

  func perform(_ operations: Int) async {
    for _ in 0..<operations {
      let writesBefore = calls.renames.load(ordering: .relaxed)
      next = dispatchToggles(Self.changes, to: store, from: next, todos: megabyteTodos)
      do {
        try await file.flush()
      } catch {
        failures.append("saving failed: \(error)")
      }
      let writes = calls.renames.load(ordering: .relaxed) - writesBefore
      if writes != 1 {
        failures.append("\(Self.changes) changes in one window were written \(writes) times")
      }
    }
  }

  func verify(operations: Int) -> [String] {
    var failures = self.failures
    failures += ToggleExpectation(todoCount: megabyteTodos, operations: operations * Self.changes)
      .check(doneFlags: store.state.todos.map(\.done))
    do {
      if try file.load() != store.state { failures.append("the file holds another state") }
    } catch {
      failures.append("the file does not load: \(error)")
    }
    return failures
  }
}

/// P4's floor: the same 1,000 plain mutations, then the value encoded with bare `JSONEncoder`
/// and written once as the library writes it: a temporary file, `fsync`, `rename`, `fsync` of
/// the directory.
@MainActor
final class SingleSaveFloor: Runner {
  let name = "one atomic save floor"
  let directory = TemporaryDirectory("p4-floor")
  var state = PlainState(todoCount: megabyteTodos)
  var next = 0
  var failures: [String] = []

  var entriesPerOperation: Int { CoalescedSaveRunner.changes }

  func perform(_ operations: Int) {
    try? FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
    let path = directory.url.appendingPathComponent("state.json").path
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for _ in 0..<operations {
      for _ in 0..<CoalescedSaveRunner.changes {
        toggleTodo(&state, at: next)
        next += 1
        if next == megabyteTodos { next = 0 }
      }
      do {
        let bytes = try encoder.encode(PlainSnapshot(counter: state.counter, todos: state.todos))
        let descriptor = open(path + ".tmp", O_RDWR | O_CREAT | O_TRUNC, 0o600)
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        let folder = open(directory.url.path, O_RDONLY)
        if descriptor < 0 || written != bytes.count || fsync(descriptor) != 0
          || close(descriptor) != 0 || rename(path + ".tmp", path) != 0
          || folder < 0 || fsync(folder) != 0 || close(folder) != 0
        {
          failures.append("saving failed")
        }
      } catch {
        failures.append("encoding failed: \(error)")
      }
    }
  }

  func verify(operations: Int) -> [String] {
    failures
      + ToggleExpectation(
        todoCount: megabyteTodos, operations: operations * CoalescedSaveRunner.changes
      )
      .check(doneFlags: state.todos.map(\.done))
  }
}
