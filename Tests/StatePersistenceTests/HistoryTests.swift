import ActionLog
import Foundation
import PersistenceTestSupport
import StateStore
import Synchronization
import Testing

@testable import StatePersistence

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A list of notes whose changes can be undone.
struct NoteList: State, Codable, Equatable {
  var notes: [String] = []
  var settings = Settings()
}

struct InsertNote: InvertibleUpdater, Codable {
  let text: String
  let index: Int

  func updateState(_ state: inout NoteList) {
    guard (0...state.notes.count).contains(index) else { return }
    state.notes.insert(text, at: index)
  }

  func inverse(of oldState: NoteList) -> (any StateUpdater<NoteList>)? {
    RemoveNote(index: index)
  }
}

struct RemoveNote: InvertibleUpdater, Codable {
  let index: Int

  func updateState(_ state: inout NoteList) {
    guard state.notes.indices.contains(index) else { return }
    state.notes.remove(at: index)
  }

  func inverse(of oldState: NoteList) -> (any StateUpdater<NoteList>)? {
    guard oldState.notes.indices.contains(index) else { return RemoveNote(index: -1) }
    return InsertNote(text: oldState.notes[index], index: index)
  }
}

/// An invertible updater whose inverse nobody registered.
struct ClearNotes: InvertibleUpdater, Codable {
  func updateState(_ state: inout NoteList) { state.notes = [] }

  func inverse(of oldState: NoteList) -> (any StateUpdater<NoteList>)? {
    RestoreNotes(notes: oldState.notes)
  }
}

struct RestoreNotes: StateUpdater, Codable {
  let notes: [String]
  func updateState(_ state: inout NoteList) { state.notes = notes }
}

@MainActor
@Suite("History and undo")
struct HistoryTests {
  static func registry() -> ActionLogRegistry<NoteList> {
    let registry = ActionLogRegistry<NoteList>()
    registry.register(InsertNote.self).register(RemoveNote.self).register(ClearNotes.self)
    registry.scope("settings", state: \.settings).register(SetTheme.self)
    return registry
  }

  static func open(
    _ disk: SimulatedDisk, options: JournalOptions = JournalOptions()
  ) async throws -> JournaledStore<NoteList, Void> {
    try await JournaledStore.open(
      directory: "/notes", dependencies: (), registry: registry(), options: options, system: disk)
  }

  @Test(
    "history gives every entry after the snapshot with its sequence, type, scope, cause and time")
  func history() async throws {
    let disk = SimulatedDisk()
    let journaled = try await Self.open(disk)
    let before = Date()
    DispatchCause.$current.withValue(DispatchCause("user: add")) {
      journaled.store.dispatch(InsertNote(text: "milk", index: 0))
    }
    journaled.store.scope(state: \.settings).dispatch(SetTheme(theme: "dark"))
    let history = try await journaled.history()
    let after = Date()

    #expect(history.map(\.sequence) == [1, 2])
    #expect(history.map(\.type) == ["InsertNote", "SetTheme"])
    #expect(history.map(\.scope) == [nil, "settings"])
    #expect(history.map(\.cause) == ["user: add", nil])
    #expect(history.map(\.undoes) == [nil, nil])
    for entry in history {
      let time = try #require(entry.time)
      #expect(time.timeIntervalSince(before) > -0.001 && time.timeIntervalSince(after) < 0.001)
    }
    #expect((history.first?.updater as? InsertNote)?.text == "milk")
    try await journaled.close()

    // History reaches back to the last snapshot only.
    let compacting = try await Self.open(disk, options: JournalOptions(snapshotInterval: 2))
    for index in 0..<3 {
      compacting.store.dispatch(InsertNote(text: "note \(index)", index: 0))
      try await compacting.flush()
    }
    let recent = try await compacting.history()
    #expect(recent.map(\.sequence) == [4, 5])
    try await compacting.close()
  }

  @Test(
    "undo dispatches the newest entry's inverse, marked, and goes further back each time, across reopening"
  )
  func undo() async throws {
    let disk = SimulatedDisk()
    var journaled = try await Self.open(disk)
    journaled.store.dispatch(InsertNote(text: "a", index: 0))
    journaled.store.dispatch(InsertNote(text: "b", index: 1))
    journaled.store.dispatch(RemoveNote(index: 0))
    journaled.store.scope(state: \.settings).dispatch(SetTheme(theme: "dark"))
    #expect(journaled.store.state.notes == ["b"])

    // The scoped SetTheme is passed over; RemoveNote's inverse puts "a" back where it was.
    let first = try await journaled.undo()
    #expect(first?.sequence == 3)
    #expect(journaled.store.state.notes == ["a", "b"])
    #expect(journaled.store.state.settings.theme == "dark")
    let second = try await journaled.undo()
    #expect(second?.sequence == 2)
    #expect(journaled.store.state.notes == ["a"])

    let history = try await journaled.history()
    #expect(
      history.map(\.type) == [
        "InsertNote", "InsertNote", "RemoveNote", "SetTheme", "InsertNote", "RemoveNote",
      ])
    #expect(history.map(\.undoes) == [nil, nil, nil, nil, 3, 2])
    #expect(history.suffix(2).map(\.cause) == ["undo", "undo"])
    try await journaled.close()

    // The marks are in the journal: after reopening, undo goes on from entry 1.
    journaled = try await Self.open(disk)
    #expect(journaled.store.state.notes == ["a"])
    #expect(try await journaled.undo()?.sequence == 1)
    #expect(journaled.store.state.notes == [])
    #expect(try await journaled.undo() == nil)
    #expect(journaled.store.state.notes == [])
    try await journaled.close()
  }

  @Test(
    "with keepsFullHistory, snapshots keep the segments they cover: history and undo reach the first entry, across reopening"
  )
  func fullHistory() async throws {
    let disk = SimulatedDisk()
    var options = JournalOptions(snapshotInterval: 2)
    options.keepsFullHistory = true
    var journaled = try await Self.open(disk, options: options)
    for index in 0..<5 {
      journaled.store.dispatch(InsertNote(text: "note \(index)", index: index))
      try await journaled.flush()
    }
    #expect(disk.data(at: "/notes/journal-1.jsonl") != nil)
    #expect(disk.data(at: "/notes/snapshot.json") != nil)
    #expect(try await journaled.history().map(\.sequence) == [1, 2, 3, 4, 5])
    try await journaled.close()

    journaled = try await Self.open(disk, options: options)
    for expected in (1...5).reversed() {
      #expect(try await journaled.undo()?.sequence == expected)
    }
    #expect(journaled.store.state.notes == [])
    #expect(try await journaled.undo() == nil)
    let history = try await journaled.history()
    #expect(history.map(\.sequence) == Array(1...10))
    #expect(history.suffix(5).map(\.undoes) == [5, 4, 3, 2, 1])
    try await journaled.close()
  }

  @Test("entries carry the time of the wall clock the options give")
  func injectedWallClock() async throws {
    let disk = SimulatedDisk()
    var options = JournalOptions()
    options.now = { Date(timeIntervalSince1970: 1_772_000_000.25) }
    let journaled = try await Self.open(disk, options: options)
    journaled.store.dispatch(InsertNote(text: "a", index: 0))
    let history = try await journaled.history()
    #expect(history.map(\.time) == [Date(timeIntervalSince1970: 1_772_000_000.25)])
    try await journaled.close()
  }

  /// Calls that log the lock's operations and every other call, by kind, in order.
  final class LoggingCalls: ForwardingCalls {
    let base: any SystemCalls
    private let events = Mutex<[String]>([])

    init(_ base: any SystemCalls) { self.base = base }

    var log: [String] { events.withLock { $0 } }
    func clear() { events.withLock { $0 = [] } }
    private func note(_ event: String) { events.withLock { $0.append(event) } }

    func lock(_ descriptor: Int32, operation: Int32) throws(SystemCallFailure) {
      note(operation == LOCK_UN ? "unlock" : operation & LOCK_EX != 0 ? "exclusive" : "shared")
      try base.lock(descriptor, operation: operation)
    }
    func read(
      _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
    ) throws(SystemCallFailure) -> Int {
      note("read")
      return try base.read(descriptor, into: buffer, at: offset)
    }
    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
      throws(SystemCallFailure) -> Int
    {
      note("write")
      return try base.write(descriptor, bytes, at: offset)
    }
    func contentsOfDirectory(_ path: String) throws(SystemCallFailure) -> [String] {
      note("list")
      return try base.contentsOfDirectory(path)
    }
  }

  @Test(
    "undo holds the exclusive lock from reading the journal until its inverse is durable, and returns then"
  )
  func undoUnderTheLock() async throws {
    let calls = LoggingCalls(SimulatedDisk())
    var options = JournalOptions()
    options.pollInterval = nil
    let journaled = try await JournaledStore.open(
      directory: "/notes", dependencies: (), registry: Self.registry(), options: options,
      system: calls)
    journaled.store.dispatch(InsertNote(text: "a", index: 0))
    try await journaled.flush()
    calls.clear()
    #expect(try await journaled.undo()?.sequence == 1)
    #expect(journaled.durableSequence == 2)
    #expect(journaled.status == .saved)
    let log = calls.log
    // One exclusive lock around everything undo does; it reads, then writes, then releases.
    #expect(log.first == "exclusive")
    #expect(log.last == "unlock")
    #expect(log.filter { $0 == "unlock" }.count == 1)
    #expect(!log.contains("shared"))
    let firstRead = try #require(log.firstIndex(of: "read"))
    let write = try #require(log.firstIndex(of: "write"))
    #expect(firstRead < write)
    try await journaled.close()
  }

  @Test(
    "an inverse that cannot be written is taken back: the state and the journal stay as they were")
  func undoTakenBack() async throws {
    let disk = SimulatedDisk()
    let calls = FaultyCalls(disk)
    var options = JournalOptions()
    options.pollInterval = nil
    let journaled = try await JournaledStore.open(
      directory: "/notes", dependencies: (), registry: Self.registry(), options: options,
      system: calls)
    journaled.store.onUnhandledError = { _, _ in }
    journaled.store.dispatch(InsertNote(text: "a", index: 0))
    try await journaled.flush()
    calls.inject(.init(kind: .write, occurrence: 1, code: EIO, persistent: true))
    await #expect(throws: PersistenceError.self) { try await journaled.undo() }
    calls.inject(nil)
    #expect(calls.injected >= 1)
    #expect(journaled.store.state.notes == ["a"])
    #expect(journaled.lastSequence == 1)
    try await journaled.flush()
    #expect(try await journaled.history().map(\.sequence) == [1])
    // The disk works again: undo now reverts the entry.
    #expect(try await journaled.undo()?.sequence == 1)
    #expect(journaled.store.state.notes == [])
    try await journaled.close()
  }

  @Test("an inverse whose type is not registered is refused, and nothing is dispatched")
  func unregisteredInverse() async throws {
    let disk = SimulatedDisk()
    let journaled = try await Self.open(disk)
    journaled.store.dispatch(InsertNote(text: "a", index: 0))
    journaled.store.dispatch(ClearNotes())
    await #expect(throws: PersistenceError.self) { try await journaled.undo() }
    #expect(journaled.store.state.notes == [])
    #expect(journaled.lastSequence == 2)
    try await journaled.close()
  }
}
