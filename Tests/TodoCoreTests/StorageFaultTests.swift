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

/// Runs every changing command against every failure point of the storage's system calls.
///
/// The exit-status contract: 0 and the change is durable and printed; 1 and every byte is as it
/// was; 3 (only when its output fails) and the change is durable; 4 (only for the faults pinned
/// in ``mayLeaveInDoubt(_:persistent:)``) and the store is exactly as before or exactly as
/// after. Each fault must land at least once on every call kind the command makes, and each
/// scenario pins the kinds its commands make, so that an injection that never fires fails.
@MainActor
@Suite("A failing disk never breaks a command's contract")
struct StorageFaultTests {
  /// A store to start from and the commands to run on it.
  struct Scenario {
    var interval: Int
    var setup: [AnyTodoChange]
    var commands: [Command] = StorageFaultTests.everyCommand
    /// The kinds of call every command of the scenario makes; the sweep checks this, so that
    /// a call kind that no fault can reach is seen.
    var kindsCalled: Set<SystemCallKind>
    /// The start of a line that a killed command left at the end of the journal, if any.
    var tornTail: String?
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

  /// What a change to an existing store calls: it reads the store, appends and syncs.
  nonisolated static let changeCalls: Set<SystemCallKind> = [
    .open, .read, .size, .lock, .write, .synchronize, .close,
  ]
  /// What a change that also writes a snapshot adds: the temporary file's removal and rename.
  nonisolated static let compactionCalls = changeCalls.union([.unlink, .rename])

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
  ///
  /// Every kind of call, the directory's listing included: the journaled store lists its
  /// segments.
  static let failureModes: [(SystemCallKind, Int32, persistent: Bool, shortWrites: Bool)] =
    SystemCallKind.allCases.flatMap { kind in
      [(kind, EIO, false, false), (kind, EIO, true, false)]
    } + [(.write, ENOSPC, false, true), (.write, ENOSPC, true, true)]

  /// Whether a fault of `kind` may leave a change in doubt (exit 4).
  ///
  /// Only a `sync` that keeps failing may: cutting the journal back after the failed `fsync`
  /// ends with an `fsync` of its own. Every other single fault is rolled back cleanly or strikes
  /// after the change is durable.
  static func mayLeaveInDoubt(_ kind: SystemCallKind, persistent: Bool) -> Bool {
    kind == .synchronize && persistent
  }

  /// The first entry of the journal segment named `name`.
  static func segmentStart(_ name: String) -> Int {
    Int(name.dropFirst("journal-".count).dropLast(".jsonl".count)) ?? 0
  }

  /// The journal's segments among `files`: what a change appends to.
  static func journal(in files: [String: Data]) -> [String: Data] {
    files.filter { $0.key.hasPrefix("journal-") }
  }

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

  static func run(
    _ command: Command, at path: String, interval: Int, system: any SystemCalls,
    console: RecordingConsole = RecordingConsole()
  ) async -> (status: ExitCode?, console: RecordingConsole) {
    let storage = JournaledTodoStorage(
      directory: path, clock: clock, snapshotInterval: interval, system: system)
    let status = await TodoCommandRunner.run(
      command, in: TodoEnvironment(storeDirectory: path, storage: storage, clock: clock),
      console: console.console)
    return (ExitCode(rawValue: status), console)
  }

  func sweep(_ scenario: Scenario) async throws {
    let origin = try StoreDirectory()
    let originPath = origin.path + "/store"
    if !scenario.setup.isEmpty {
      try await JournaledTodoStorage(directory: originPath, snapshotInterval: scenario.interval)
        .apply(scenario.setup)
    }
    var template = try Self.files(at: originPath)
    let lastSegment = template.keys.filter { $0.hasPrefix("journal-") }.max {
      Self.segmentStart($0) < Self.segmentStart($1)
    }
    if let tornTail = scenario.tornTail, let lastSegment {
      template[lastSegment, default: Data()].append(Data(tornTail.utf8))
    }
    // What a command that changed nothing may leave: the files as they were, or with the torn
    // tail cut off (readers ignore it; the cut is the first thing a change writes).
    var unchanged = [template]
    if let lastSegment, let journal = template[lastSegment],
      let end = journal.lastIndex(of: 0x0A), end + 1 < journal.count
    {
      unchanged.append(template.merging([lastSegment: journal[...end]]) { $1 })
    }
    let before = try await JournaledTodoStorage(directory: originPath).load()
    for command in scenario.commands {
      let clean = try StoreDirectory()
      let cleanPath = try Self.place(template, in: clean)
      let counter = FaultyCalls.counting()
      let reference = await Self.run(
        command, at: cleanPath, interval: scenario.interval, system: counter)
      try #require(reference.status == .done, "\(command): \(reference.console.error)")
      #expect(
        counter.kindsCalled.isSuperset(of: scenario.kindsCalled),
        "\(command) calls \(counter.kindsCalled)")
      let kindsCalled = counter.kindsCalled
      let expectedJournal = Self.journal(in: try Self.files(at: cleanPath))
      let expected = try await JournaledTodoStorage(directory: cleanPath).load()
      #expect(expected != before, "\(command) changes the store")
      let printsOutput = !reference.console.output.isEmpty
      var commandStatuses: Set<ExitCode> = []
      for (kind, code, persistent, shortWrites) in Self.failureModes {
        var landed = 0
        var statuses: Set<ExitCode> = []
        for number in 1...200 {
          let fault = FaultyCalls(
            failing: kind, number: number, code: code, persistent: persistent,
            shortWrites: shortWrites)
          let directory = try StoreDirectory()
          let path = try Self.place(template, in: directory)
          // Every other run's output fails too, as on a full disk: a saved change then exits 3.
          let outputFails = number.isMultiple(of: 2)
          let (status, console) = await Self.run(
            command, at: path, interval: scenario.interval, system: fault,
            console: RecordingConsole(failsOutput: outputFails))
          let context =
            "\(command) with \(fault) failing: exit \(String(describing: status)), "
            + "output fails: \(outputFails), \(console.error)"
          let after = try Self.files(at: path)
          #expect(after["snapshot.json.tmp"] == nil, "\(context): a temporary file is left")
          let loaded: AppState
          do {
            loaded = try await JournaledTodoStorage(directory: path).load()
          } catch {
            Issue.record("\(context): the store no longer loads: \(error)")
            break
          }
          if let status { statuses.insert(status) }
          switch status {
          case .done:
            #expect(!(outputFails && printsOutput), "\(context): its output was lost")
            #expect(loaded == expected, "\(context): the change is missing")
            #expect(Self.journal(in: after) == expectedJournal, "\(context)")
            #expect(outputFails || console.output == reference.console.output, "\(context)")
          case .savedWithoutOutput:
            #expect(outputFails && printsOutput, "\(context): exit 3 with its output written")
            #expect(loaded == expected, "\(context): the change is missing")
            #expect(Self.journal(in: after) == expectedJournal, "\(context)")
            #expect(console.error.contains("The change was saved"), "\(context)")
          case .unchanged:
            #expect(unchanged.contains(after), "\(context): the store changed")
            #expect(console.error.contains("Nothing was changed"), "\(context)")
          case .unknown:
            #expect(
              Self.mayLeaveInDoubt(kind, persistent: persistent),
              "\(context): only a persistent sync fault may leave a change in doubt")
            #expect(loaded == before || loaded == expected, "\(context): part of a change")
            #expect(console.error.contains("Cannot tell whether the change was saved"))
          case .usageError, nil:
            Issue.record("\(context): not a status a change may end with")
          }
          guard fault.hit else {
            #expect(status == (outputFails && printsOutput ? .savedWithoutOutput : .done))
            break
          }
          landed += 1
        }
        let mode = "\(command) with \(kind)\(persistent ? " and after" : "") failing"
        #expect(
          landed > 0 || !kindsCalled.contains(kind), "\(mode): no fault landed")
        if Self.mayLeaveInDoubt(kind, persistent: persistent) {
          #expect(statuses.contains(.unknown), "\(mode): never left the change in doubt")
        }
        commandStatuses.formUnion(statuses)
      }
      #expect(commandStatuses.contains(.unchanged), "\(command): no fault failed it")
      #expect(
        commandStatuses.contains(.savedWithoutOutput) == printsOutput,
        "\(command): exit 3 exactly when it prints and its output fails")
    }
  }

  @Test("The first add on a store that does not exist yet")
  func firstAdd() async throws {
    try await sweep(
      Scenario(
        interval: 200, setup: [], commands: [.add(title: "first")],
        kindsCalled: [.makeDirectory, .open, .lock, .write, .synchronize, .close]))
  }

  @Test("Every command on a store whose next change does not compact")
  func withoutCompaction() async throws {
    try await sweep(Scenario(interval: 200, setup: Self.fiveEntries, kindsCalled: Self.changeCalls))
  }

  @Test("Every command on a store whose journal ends with a torn line that the change cuts off")
  func afterATornLine() async throws {
    try await sweep(
      Scenario(
        interval: 200, setup: Self.fiveEntries,
        kindsCalled: Self.changeCalls.union([.truncate]),
        tornTail: #"{"seq":6,"type":"AddTodo","payload":{"id":4,"ti"#))
  }

  @Test("Every command on a store whose next change writes a snapshot over an older one")
  func acrossCompaction() async throws {
    // A snapshot at entry 4, then three entries: one is due, and the next change carries it.
    let setup =
      Self.fiveEntries + [
        .addTodo(AddTodo(id: 4, title: "four")), .setDone(SetDone(id: 4, done: true)),
      ]
    try await sweep(Scenario(interval: 3, setup: setup, kindsCalled: Self.compactionCalls))
  }

  @Test("Every command on a store of 200 entries, whose next change carries the first snapshot")
  func acrossTheDefaultInterval() async throws {
    let adds = (1...199).map { (id: Int) in
      AnyTodoChange.addTodo(AddTodo(id: id, title: "todo \(id)", tags: id == 1 ? ["home"] : []))
    }
    try await sweep(
      Scenario(
        interval: 200, setup: adds + [.setDone(SetDone(id: 2, done: true))],
        kindsCalled: Self.compactionCalls))
  }

  @Test("A snapshot that cannot be written fails nothing, and the next change writes it")
  func compactionRetried() async throws {
    let directory = try StoreDirectory()
    let path = directory.path + "/store"
    // Three entries: a snapshot is due, and the next change carries it.
    try await JournaledTodoStorage(directory: path, snapshotInterval: 3)
      .apply([.addTodo(AddTodo(id: 1, title: "one")), .addTodo(AddTodo(id: 2, title: "two"))])
    let third = await Self.run(.add(title: "third"), at: path, interval: 3, system: POSIXCalls())
    #expect(third.status == .done)
    let broken = FaultyCalls(failing: .rename, number: 1, persistent: true)
    let failed = await Self.run(
      .add(title: "fourth"), at: path, interval: 3, system: broken)
    #expect(broken.hit)
    #expect(failed.status == .done, "\(failed.console.error)")
    #expect(failed.console.output == "4\n")
    #expect(!FileManager.default.fileExists(atPath: path + "/snapshot.json"))
    #expect(!FileManager.default.fileExists(atPath: path + "/snapshot.json.tmp"))
    #expect(try await JournaledTodoStorage(directory: path).load().todos.map(\.id) == [1, 2, 3, 4])
    let next = await Self.run(.add(title: "fifth"), at: path, interval: 3, system: POSIXCalls())
    #expect(next.status == .done)
    #expect(FileManager.default.fileExists(atPath: path + "/snapshot.json"))
    #expect(
      try await JournaledTodoStorage(directory: path).load().todos.map(\.id) == [1, 2, 3, 4, 5])
  }

  @Test(
    "A change whose output cannot be written exits 3 and is saved, with or without its message",
    arguments: [false, true])
  func outputFailsAfterSave(messagesFail: Bool) async throws {
    let directory = try StoreDirectory()
    let console = RecordingConsole(failsOutput: true, failsMessages: messagesFail)
    let (status, _) = await Self.run(
      .add(title: "kept"), at: directory.path, interval: 200, system: POSIXCalls(), console: console
    )
    #expect(status == .savedWithoutOutput)
    #expect(console.error.contains("The change was saved: do not run") == !messagesFail)
    let storage = JournaledTodoStorage(directory: directory.path)
    #expect(try await storage.load().todos.map(\.title) == ["kept"])

    let listing = RecordingConsole(failsOutput: true, failsMessages: messagesFail)
    let (listStatus, _) = await Self.run(
      .list(.all, json: false), at: directory.path, interval: 200, system: POSIXCalls(),
      console: listing)
    #expect(listStatus == .unchanged, "a read whose output is lost changed nothing")
    #expect(listing.error.contains("Nothing was changed") == !messagesFail)
  }

  @Test("A change in doubt exits 4 however its message fares", arguments: [false, true])
  func changeInDoubt(messagesFail: Bool) async throws {
    let directory = try StoreDirectory()
    let path = directory.path + "/store"
    try await JournaledTodoStorage(directory: path).apply(Array(Self.fiveEntries.prefix(2)))
    let console = RecordingConsole(failsMessages: messagesFail)
    let fault = FaultyCalls(failing: .synchronize, number: 1, persistent: true)
    let (status, _) = await Self.run(
      .add(title: "third"), at: path, interval: 200, system: fault,
      console: console)
    #expect(fault.hit)
    #expect(status == .unknown)
    #expect(console.output.isEmpty)
    #expect(console.error.contains("Cannot tell whether the change was saved") == !messagesFail)
    let ids = try await JournaledTodoStorage(directory: path).load().todos.map(\.id)
    #expect(ids == [1, 2] || ids == [1, 2, 3])
  }
}
