import Foundation
import PersistenceTestSupport
import StatePersistence
import TerminalKit
import Testing

@testable import TodoCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A store that cannot be read is a failure that names the file, never an empty list: for every
/// errno, `ENOENT` from an `open` of a file that is there included.
@MainActor
@Suite("A read that fails never looks like an empty store")
struct StorageReadFaultTests {
  /// A store with a lock, a snapshot (at entry 3) and a journal of five entries.
  func makeStore() async throws -> (StoreDirectory, String) {
    let directory = try StoreDirectory()
    let path = directory.path
    try await JournaledTodoStorage(directory: path, snapshotInterval: 3)
      .apply(StorageFaultTests.fiveEntries)
    for name in ["lock", "snapshot.json", "journal-1.jsonl"] {
      try #require(FileManager.default.fileExists(atPath: path + "/" + name), "\(name)")
    }
    return (directory, path)
  }

  @Test(
    "list, history and clear on an existing store fail with exit 1, naming the file and the error",
    arguments: [SystemCallKind.open, .read], [ENOENT, EACCES, EIO])
  func failedRead(kind: SystemCallKind, code: Int32) async throws {
    let (directory, path) = try await makeStore()
    let before = try directory.contents()
    let reason = String(cString: strerror(code))
    // The calls of `kind` that reading the store makes, before any command writes.
    let counter = FaultyCalls.counting()
    let reference = await StorageFaultTests.run(
      .list(.all, json: true), at: path, interval: 3, system: counter)
    try #require(reference.status == .done)
    let reads = counter.calls(of: kind)
    // The snapshot and the journal are each opened and read.
    try #require(reads >= 2, "\(kind) is called \(reads) times")
    let commands: [Command] = [.list(.all, json: true), .history(limit: nil, json: true), .clear]
    for command in commands {
      for number in 1...reads {
        let fault = FaultyCalls(failing: kind, number: number, code: code)
        let (status, console) = await StorageFaultTests.run(
          command, at: path, interval: 3, system: fault)
        let context = "\(command) with \(fault) failing: \(console.output) \(console.error)"
        #expect(fault.hit, "\(context)")
        #expect(status == .unchanged, "\(context)")
        #expect(console.output.isEmpty, "\(context): printed a result")
        #expect(console.error.contains("cannot \(kind) \(path)/"), "\(context)")
        #expect(console.error.contains(reason), "\(context)")
        #expect(try directory.contents() == before, "\(context): the store changed")
      }
    }
  }

  @Test("A missing store directory, and a directory that never held a store, are empty lists")
  func noStoreIsEmpty() async throws {
    let directory = try StoreDirectory()
    let missing = await StorageFaultTests.run(
      .list(.all, json: true), at: directory.path + "/none", interval: 200, system: POSIXCalls())
    #expect(missing.status == .done)
    #expect(missing.console.output == "[]\n")
    let empty = await StorageFaultTests.run(
      .list(.all, json: true), at: directory.path, interval: 200, system: POSIXCalls())
    #expect(empty.status == .done)
    #expect(empty.console.output == "[]\n")
  }

  @Test("A store whose first change failed and was cut back (only its lock is left) is empty")
  func lockOnlyIsEmpty() async throws {
    let directory = try StoreDirectory()
    let fault = FaultyCalls(failing: .write, number: 1, persistent: true)
    let failed = await StorageFaultTests.run(
      .add(title: "lost"), at: directory.path, interval: 200, system: fault)
    #expect(failed.status == .unchanged)
    #expect(try directory.contents().keys.sorted() == ["lock"])
    let listed = await StorageFaultTests.run(
      .list(.all, json: true), at: directory.path, interval: 200, system: POSIXCalls())
    #expect(listed.status == .done)
    #expect(listed.console.output == "[]\n")
  }
}
