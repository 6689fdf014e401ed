import Foundation
import Testing

@testable import TodoCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs every changing command against every failure point of the storage's system calls and
/// checks the contract: exit 0 and the change is durable, or exit 1 and every byte is as it was
/// (or the message says the change may or may not be saved, and the store still loads).
@MainActor
@Suite("A failing disk never breaks a command's contract")
struct StorageFaultTests {
  /// A store to start from and the commands to run on it.
  struct Scenario {
    var interval: Int
    var setup: [AnyTodoChange]
    var commands: [Command] = StorageFaultTests.everyCommand
  }

  nonisolated static let everyCommand: [Command] = [
    .add(title: "new"), .setDone(id: 1, done: true), .setDone(id: 2, done: false),
    .edit(id: 1, title: "edited"), .remove(id: 1), .clear, .undo,
    .add(
      title: "dated", tags: ["work", "Home"], due: .daysFromToday(2), priority: .high),
    .tag(id: 1, tags: ["work", "HOME"]), .untag(id: 1, tags: ["HOME"]),
    .due(id: 1, date: .date(CalendarDate(year: 2026, month: 2, day: 28) ?? .latest)),
    .priority(id: 1, priority: .medium),
  ]

  /// Every run's clock: the journal's times, and "today", are the same in every run.
  nonisolated static let clock = TodoClock.fixed(
    at: Date(timeIntervalSince1970: 1_772_000_000),
    timeZone: TimeZone(identifier: "UTC") ?? .current)

  /// Todo 1 open and tagged `home`, todo 2 done, todo 3 edited: five entries.
  static let fiveEntries: [AnyTodoChange] = [
    .addTodo(AddTodo(id: 1, title: "one", tags: ["home"])),
    .addTodo(AddTodo(id: 2, title: "two")),
    .setDone(SetDone(id: 2, done: true)), .addTodo(AddTodo(id: 3, title: "three")),
    .editTitle(EditTitle(id: 3, title: "three, edited")),
  ]

  /// Every way a call can fail: once or from then on, and writes that fail after a partial
  /// write.
  static let failureModes: [(CallKind, Int32, persistent: Bool, shortWrites: Bool)] =
    CallKind.allCases.flatMap { kind in
      [(kind, EIO, false, false), (kind, EIO, true, false)]
    } + [(.write, ENOSPC, false, true), (.write, ENOSPC, true, true)]

  /// The store's files except the lock, or none when the directory does not exist.
  static func files(at path: String) throws -> [String: Data] {
    guard FileManager.default.fileExists(atPath: path) else { return [:] }
    var contents: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: path) where name != "lock" {
      contents[name] = try Data(contentsOf: URL(fileURLWithPath: path + "/" + name))
    }
    return contents
  }

  /// A new store directory holding `files`; none is created when `files` is empty.
  static func place(_ files: [String: Data], in directory: StoreDirectory) throws -> String {
    let path = directory.path + "/store"
    guard !files.isEmpty else { return path }
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    for (name, data) in files { try data.write(to: URL(fileURLWithPath: path + "/" + name)) }
    return path
  }

  static func run(_ command: Command, at path: String, interval: Int, system: SystemCalls)
    async -> (status: Int32, console: RecordingConsole)
  {
    let console = RecordingConsole()
    let storage = FileTodoStorage(directory: path, compactionInterval: interval, system: system)
    let status = await TodoCommandRunner.run(
      command, in: TodoEnvironment(storeDirectory: path, storage: storage, clock: clock),
      console: console.console)
    return (status, console)
  }

  func sweep(_ scenario: Scenario) async throws {
    let origin = try StoreDirectory()
    let originPath = origin.path + "/store"
    if !scenario.setup.isEmpty {
      try await FileTodoStorage(directory: originPath, compactionInterval: scenario.interval)
        .apply(scenario.setup)
    }
    let template = try Self.files(at: originPath)
    let before = try FileTodoStorage(directory: originPath).load()
    for command in scenario.commands {
      let clean = try StoreDirectory()
      let cleanPath = try Self.place(template, in: clean)
      let reference = await Self.run(
        command, at: cleanPath, interval: scenario.interval, system: .real)
      try #require(reference.status == 0, "\(command): \(reference.console.error)")
      let expectedJournal = try Self.files(at: cleanPath)["journal.jsonl"]
      let expected = try FileTodoStorage(directory: cleanPath).load()
      #expect(expected != before, "\(command) changes the store")
      for (kind, code, persistent, shortWrites) in Self.failureModes {
        for number in 1...200 {
          let fault = Fault(
            kind, number: number, code: code, persistent: persistent, shortWrites: shortWrites)
          let directory = try StoreDirectory()
          let path = try Self.place(template, in: directory)
          let (status, console) = await Self.run(
            command, at: path, interval: scenario.interval, system: .real.injecting(fault))
          let context = "\(command) with \(fault) failing: exit \(status), \(console.error)"
          let after = try Self.files(at: path)
          #expect(after["snapshot.tmp"] == nil, "\(context): a temporary file is left")
          let loaded: AppState
          do {
            loaded = try FileTodoStorage(directory: path).load()
          } catch {
            Issue.record("\(context): the store no longer loads: \(error)")
            break
          }
          if status == 0 {
            #expect(loaded == expected, "\(context): the change is missing")
            #expect(after["journal.jsonl"] == expectedJournal, "\(context)")
            #expect(console.output == reference.console.output, "\(context)")
          } else if console.error.contains("may or may not be saved") {
            #expect(status == 1, "\(context)")
            #expect(loaded == before || loaded == expected, "\(context)")
          } else {
            #expect(status == 1, "\(context)")
            #expect(after == template, "\(context): the store changed")
            #expect(console.error.contains("Nothing was changed"), "\(context)")
          }
          if !fault.hit {
            #expect(status == 0, "\(context)")
            break
          }
        }
      }
    }
  }

  @Test("The first add on a store that does not exist yet")
  func firstAdd() async throws {
    try await sweep(Scenario(interval: 200, setup: [], commands: [.add(title: "first")]))
  }

  @Test("Every command on a store whose next change does not compact")
  func withoutCompaction() async throws {
    try await sweep(Scenario(interval: 200, setup: Self.fiveEntries))
  }

  @Test("Every command on a store whose next change writes a snapshot over an older one")
  func acrossCompaction() async throws {
    try await sweep(Scenario(interval: 3, setup: Self.fiveEntries))
  }

  @Test("Every command on a store whose next change is entry 200, the default snapshot point")
  func acrossTheDefaultInterval() async throws {
    let adds = (1...198).map { (id: Int) in
      AnyTodoChange.addTodo(AddTodo(id: id, title: "todo \(id)", tags: id == 1 ? ["home"] : []))
    }
    try await sweep(Scenario(interval: 200, setup: adds + [.setDone(SetDone(id: 2, done: true))]))
  }

  @Test("A snapshot that cannot be written fails nothing, and the next change writes it")
  func compactionRetried() async throws {
    let directory = try StoreDirectory()
    let path = directory.path + "/store"
    try await FileTodoStorage(directory: path, compactionInterval: 3)
      .apply(Array(Self.fiveEntries.prefix(2)))
    let broken = Fault(.rename, number: 1, persistent: true)
    let failed = await Self.run(
      .add(title: "third"), at: path, interval: 3, system: .real.injecting(broken))
    #expect(broken.hit)
    #expect(failed.status == 0, "\(failed.console.error)")
    #expect(failed.console.output == "3\n")
    #expect(!FileManager.default.fileExists(atPath: path + "/snapshot"))
    #expect(!FileManager.default.fileExists(atPath: path + "/snapshot.tmp"))
    #expect(try FileTodoStorage(directory: path).load().todos.map(\.id) == [1, 2, 3])
    let next = await Self.run(.add(title: "fourth"), at: path, interval: 3, system: .real)
    #expect(next.status == 0)
    let snapshot = try SnapshotCodec.decode(
      try directory.read(path + "/snapshot").map { $0 }, path: "snapshot")
    #expect(snapshot.seq == 4)
  }

  @Test("A change whose output cannot be written exits 1, says it was saved, and is saved")
  func outputFailsAfterSave() async throws {
    let directory = try StoreDirectory()
    let console = RecordingConsole(failsOutput: true)
    let storage = FileTodoStorage(directory: directory.path)
    let status = await TodoCommandRunner.run(
      .add(title: "kept"), in: TodoEnvironment(storeDirectory: directory.path, storage: storage),
      console: console.console)
    #expect(status == 1)
    #expect(console.error.contains("the change was saved"))
    #expect(try storage.load().todos.map(\.title) == ["kept"])

    let listing = RecordingConsole(failsOutput: true)
    let listStatus = await TodoCommandRunner.run(
      .list(.all, json: false),
      in: TodoEnvironment(storeDirectory: directory.path, storage: storage),
      console: listing.console)
    #expect(listStatus == 1)
    #expect(listing.error.contains("Nothing was changed"))
  }
}
