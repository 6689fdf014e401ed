import Foundation
import PersistenceTestSupport
import StatePersistence
import Synchronization
import TerminalKit
import Testing

@testable import TodoCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("The file store: power cuts, permissions, links, locks, limits")
struct FileTodoStorageSafetyTests {
  static let adds: [AnyTodoChange] = (1...3).map { (id: Int) in
    .addTodo(AddTodo(id: id, title: "todo \(id)"))
  }

  func appendBytes(_ bytes: [UInt8], to path: String) throws {
    let handle = try #require(FileHandle(forWritingAtPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
  }

  func mode(_ path: String) throws -> Int {
    var info = stat()
    try #require(lstat(path, &info) == 0)
    return Int(info.st_mode) & 0o777
  }

  @Test(
    "A last line of NUL bytes from a power cut is ignored and cut off by the next change",
    arguments: [
      [UInt8](repeating: 0, count: 90) + [0x0A], [UInt8](repeating: 0, count: 90),
      [UInt8](repeating: 0, count: 40) + [0x0A] + [UInt8](repeating: 0, count: 12),
    ])
  func nulTail(tail: [UInt8]) async throws {
    let directory = try StoreDirectory()
    let storage = FileTodoStorage(directory: directory.path)
    try await storage.apply(Array(Self.adds.prefix(2)))
    let saved = try directory.read(directory.journal)
    try appendBytes(tail, to: directory.journal)
    #expect(try storage.load().todos.map(\.id) == [1, 2])
    #expect(try storage.history().map(\.seq) == [1, 2])
    try await storage.apply([Self.adds[2]])
    let repaired = try directory.read(directory.journal)
    #expect(!repaired.contains(0))
    #expect(repaired.starts(with: saved))
    #expect(try storage.history().map(\.seq) == [1, 2, 3])
  }

  @Test("A journal of only NUL bytes (a power cut on the first change) is an empty store")
  func nulJournal() async throws {
    let directory = try StoreDirectory()
    try directory.write(Data(repeating: 0, count: 300), to: directory.journal)
    let storage = FileTodoStorage(directory: directory.path)
    #expect(try storage.load() == AppState())
    try await storage.apply([Self.adds[0]])
    #expect(try storage.load().todos.map(\.id) == [1])
    #expect(!(try directory.read(directory.journal)).contains(0))
  }

  @Test("A NUL line with entries after it is damage naming its line")
  func nulLineInTheMiddle() async throws {
    let directory = try StoreDirectory()
    try await FileTodoStorage(directory: directory.path).apply(Self.adds)
    var lines = try directory.read(directory.journal).split(
      separator: 0x0A, omittingEmptySubsequences: false)
    lines[2] = Data(repeating: 0, count: lines[2].count)
    try directory.write(Data(lines.joined(separator: [0x0A])), to: directory.journal)
    let storage = FileTodoStorage(directory: directory.path, compactionInterval: 1)
    let before = try directory.contents()
    #expect { try storage.load() } throws: { "\($0)".contains("journal.jsonl:3") }
    await #expect { try await storage.apply([Self.adds[0]]) } throws: { error in
      "\(error)".contains("journal.jsonl:3")
    }
    #expect(try directory.contents() == before)
  }

  @Test("Created files are 0600 and directories 0700; modes a user set are kept")
  func permissions() async throws {
    let directory = try StoreDirectory()
    let store = directory.path + "/a/b"
    let storage = FileTodoStorage(directory: store, compactionInterval: 2)
    try await storage.apply(Self.adds)
    #expect(try mode(directory.path + "/a") == 0o700)
    #expect(try mode(store) == 0o700)
    for name in ["journal.jsonl", "lock", "snapshot"] {
      #expect(try mode(store + "/" + name) == 0o600, "\(name)")
    }
    #expect(chmod(store + "/journal.jsonl", 0o644) == 0)
    #expect(chmod(store, 0o755) == 0)
    try await storage.apply([.setDone(SetDone(id: 1, done: true))])
    #expect(try mode(store + "/journal.jsonl") == 0o644)
    #expect(try mode(store) == 0o755)
  }

  @Test("A symbolic link planted at snapshot.tmp is removed, never written through")
  func plantedTemporaryLink() async throws {
    let directory = try StoreDirectory()
    let victim = directory.path + "/victim"
    try directory.write(Data("precious".utf8), to: victim)
    let store = directory.path + "/store"
    let storage = FileTodoStorage(directory: store, compactionInterval: 3)
    try await storage.apply(Array(Self.adds.prefix(2)))
    try FileManager.default.createSymbolicLink(
      atPath: store + "/snapshot.tmp", withDestinationPath: victim)
    try await storage.apply([Self.adds[2]])
    #expect(try directory.read(victim) == Data("precious".utf8))
    #expect(!FileManager.default.fileExists(atPath: store + "/snapshot.tmp"))
    let snapshot = try FileManager.default.attributesOfItem(atPath: store + "/snapshot")
    #expect(snapshot[.type] as? FileAttributeType == .typeRegular)
    #expect(try storage.load().todos.count == 3)
  }

  @Test("A journal that is a symbolic link is not followed: an error, and its target is kept")
  func linkedJournal() async throws {
    let directory = try StoreDirectory()
    let store = directory.path + "/store"
    try await FileTodoStorage(directory: store).apply([Self.adds[0]])
    try FileManager.default.moveItem(
      atPath: store + "/journal.jsonl", toPath: directory.path + "/j")
    try FileManager.default.createSymbolicLink(
      atPath: store + "/journal.jsonl", withDestinationPath: directory.path + "/j")
    let target = try directory.read(directory.path + "/j")
    let storage = FileTodoStorage(directory: store)
    #expect { try storage.load() } throws: { "\($0)".contains("symbolic link") }
    await #expect(throws: StorageError.self) { try await storage.apply([Self.adds[1]]) }
    #expect(try directory.read(directory.path + "/j") == target)
  }

  @Test("The last entry number is written and read; the change after it fails cleanly")
  func sequenceLimit() async throws {
    let directory = try StoreDirectory()
    let header = Array((JournalCodec.header + "\n").utf8)
    try directory.write(Data(header), to: directory.journal)
    // The snapshot covers every entry but the last one a journal can number.
    let snapshot = Snapshot(state: AppState(), seq: Int.max - 2, offset: header.count)
    try directory.write(Data(SnapshotCodec.encode(snapshot)), to: directory.snapshot)
    let storage = FileTodoStorage(directory: directory.path)
    try await storage.apply([Self.adds[0]])
    #expect(try storage.load().todos.map(\.id) == [1], "entry Int.max - 1 reads back")
    let before = try directory.contents()
    await #expect { try await storage.apply([Self.adds[1]]) } throws: { error in
      guard case StorageError.damaged(_, _, let reason) = error else { return false }
      return reason.contains("the last number an entry can have")
    }
    #expect(
      try directory.contents().filter { $0.key != "lock" } == before.filter { $0.key != "lock" })
    #expect(try storage.load().todos.map(\.id) == [1])
  }

  @Test("A snapshot claiming entry Int.max is damage, reported before anything is written")
  func snapshotAtIntMax() async throws {
    let directory = try StoreDirectory()
    let header = Array((JournalCodec.header + "\n").utf8)
    try directory.write(Data(header), to: directory.journal)
    let snapshot = Snapshot(state: AppState(), seq: Int.max, offset: header.count)
    try directory.write(Data(SnapshotCodec.encode(snapshot)), to: directory.snapshot)
    let before = try directory.contents()
    let storage = FileTodoStorage(directory: directory.path)
    #expect { try storage.load() } throws: { error in
      guard case StorageError.damaged(let path, 2, _) = error else { return false }
      return path.hasSuffix("snapshot")
    }
    await #expect(throws: StorageError.self) { try await storage.apply([Self.adds[0]]) }
    #expect(try directory.contents().filter { $0.key != "lock" } == before)
  }

  /// A lock that another process holds for `busyTries` non-blocking tries; the pauses between
  /// tries are counted, not slept.
  final class BusyLock: ForwardingCalls {
    let busyTries: Int
    let base: any SystemCalls = POSIXCalls()
    private let state = Mutex((tries: 0, paused: 0, blocked: false))
    init(busyTries: Int) { self.busyTries = busyTries }
    var paused: Int { state.withLock { $0.paused } }
    var blocked: Bool { state.withLock { $0.blocked } }

    func lock(_ descriptor: Int32, operation: Int32) throws(SystemCallFailure) {
      if operation != LOCK_UN {
        let busy = state.withLock { state in
          if operation & LOCK_NB == 0 { state.blocked = true }
          state.tries += 1
          return operation & LOCK_NB != 0 && state.tries <= busyTries
        }
        if busy { throw SystemCallFailure(.lock, code: EWOULDBLOCK) }
      }
      try base.lock(descriptor, operation: operation)
    }

    func pause(microseconds: Int) { state.withLock { $0.paused += microseconds } }
  }

  @Test("A lock held for about a second is announced once, then waited for")
  func lockWaitAnnounced() async throws {
    let directory = try StoreDirectory()
    let busy = BusyLock(busyTries: 1_000)
    let notices = Mutex<[String]>([])
    let storage = FileTodoStorage(
      directory: directory.path, system: busy,
      announceLockWait: { directory in notices.withLock { $0.append(directory) } })
    try await storage.apply([Self.adds[0]])
    #expect(notices.withLock { $0 } == [directory.path])
    #expect(busy.blocked)
    #expect((1_000_000...1_100_000).contains(busy.paused))
  }

  @Test("A lock released within a second is taken without a word")
  func shortLockWaitIsQuiet() async throws {
    let directory = try StoreDirectory()
    let busy = BusyLock(busyTries: 8)
    let notices = Mutex(0)
    let storage = FileTodoStorage(
      directory: directory.path, system: busy,
      announceLockWait: { _ in notices.withLock { $0 += 1 } })
    try await storage.apply([Self.adds[0]])
    #expect(notices.withLock { $0 } == 0)
    #expect(!busy.blocked)
    #expect(busy.paused > 0 && busy.paused < 1_000_000)
  }
}
