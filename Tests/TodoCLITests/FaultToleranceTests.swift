import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a stream on its own thread so a test can await a message without sleeping.
final class StreamWatcher: Sendable {
  private let received = Mutex(Data())
  private let arrived = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    let thread = Thread { [self] in
      while true {
        let chunk = handle.availableData
        received.withLock { $0.append(chunk) }
        arrived.signal()
        if chunk.isEmpty { return }
      }
    }
    thread.start()
  }

  var text: String { received.withLock { String(decoding: $0, as: UTF8.self) } }

  /// Waits until the stream has carried `expected`, or gives up after `seconds`.
  func wait(for expected: String, seconds: Double) -> Bool {
    let deadline = DispatchTime.now() + seconds
    while !text.contains(expected) {
      guard arrived.wait(timeout: deadline) == .success else { return text.contains(expected) }
    }
    return true
  }
}

@Suite("todo-cli keeps its exit-status contract when the disk or the output fails")
struct FaultToleranceTests {
  /// `fiu-run` from Debian's fiu-utils, which makes POSIX calls fail at random.
  static let fiuRun: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/fiu-run"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }()

  @Test(
    "A change whose output goes to a full disk exits 1, says it was saved, and is saved",
    .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
  func outputToFullDisk() throws {
    let cli = try CLIHarness()
    let process = try cli.makeProcess(arguments: ["--store", cli.store, "add", "kept"])
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    let error = Pipe()
    process.standardError = error
    try process.run()
    let message = String(
      decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 1)
    #expect(message.contains("the change was saved"), "\(message)")
    #expect(try cli.todos().map(\.title) == ["kept"])
  }

  @Test("Output into a closed pipe is an error, not a silent success or a SIGPIPE death")
  func outputToClosedPipe() throws {
    let cli = try CLIHarness()
    let output = Pipe()
    try output.fileHandleForReading.close()
    let process = try cli.makeProcess(arguments: ["--store", cli.store, "add", "kept"])
    process.standardOutput = output
    let result = try cli.run(redirectingErrorOf: process)
    #expect(!result.signaled)
    #expect(result.status == 1)
    #expect(result.error.contains("the change was saved"), "\(result.error)")
    #expect(try cli.todos().map(\.title) == ["kept"])
  }

  @Test("The first change creates a 0700 directory and 0600 files")
  func permissions() throws {
    let cli = try CLIHarness()
    #expect(try cli.run("add", "private").status == 0)
    func mode(_ path: String) throws -> Int {
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      return try #require(attributes[.posixPermissions] as? Int)
    }
    #expect(try mode(cli.store) == 0o700)
    #expect(try mode(cli.store + "/journal.jsonl") == 0o600)
    #expect(try mode(cli.store + "/lock") == 0o600)
    #expect(chmod(cli.store + "/journal.jsonl", 0o644) == 0)
    #expect(try cli.run("done", "1").status == 0)
    #expect(try mode(cli.store + "/journal.jsonl") == 0o644)
  }

  @Test(
    "A command waiting for another's lock says so, completes when it is freed, and Ctrl-C ends it")
  func lockWait() throws {
    let cli = try CLIHarness()
    try cli.run("add", "first")
    let lock = open(cli.store + "/lock", O_RDWR)
    try #require(lock >= 0)
    defer { close(lock) }
    let notice = "todo-cli: waiting for another todo-cli using \(cli.store)"

    try #require(flock(lock, LOCK_EX) == 0)
    let waiting = try cli.makeProcess(arguments: ["--store", cli.store, "add", "second"])
    let error = Pipe()
    waiting.standardError = error
    waiting.standardOutput = FileHandle.nullDevice
    try waiting.run()
    let watcher = StreamWatcher(error.fileHandleForReading)
    #expect(watcher.wait(for: notice, seconds: 60), "\(watcher.text)")
    #expect(waiting.isRunning)
    #expect(flock(lock, LOCK_UN) == 0)
    waiting.waitUntilExit()
    #expect(waiting.terminationStatus == 0)
    #expect(try cli.todos().map(\.title) == ["first", "second"])

    try #require(flock(lock, LOCK_EX) == 0)
    let before = try cli.storeContents()
    let interrupted = try cli.makeProcess(arguments: ["--store", cli.store, "add", "third"])
    let interruptedError = Pipe()
    interrupted.standardError = interruptedError
    interrupted.standardOutput = FileHandle.nullDevice
    try interrupted.run()
    let interruptedWatcher = StreamWatcher(interruptedError.fileHandleForReading)
    #expect(interruptedWatcher.wait(for: notice, seconds: 60))
    kill(interrupted.processIdentifier, SIGINT)
    interrupted.waitUntilExit()
    #expect(interrupted.terminationReason == .uncaughtSignal)
    #expect(interrupted.terminationStatus == SIGINT)
    #expect(flock(lock, LOCK_UN) == 0)
    #expect(try cli.storeContents() == before)
  }

  /// Writes a journal of `count` adds, so that a few more changes cross the snapshot point.
  func seed(_ cli: CLIHarness, count: Int) throws {
    try FileManager.default.createDirectory(atPath: cli.store, withIntermediateDirectories: true)
    var text = #"{"format":"statestore-action-log","version":1,"app":"todo-cli"}"# + "\n"
    for id in 1...count {
      text += #"{"seq":\#(id),"type":"AddTodo","payload":{"id":\#(id),"title":"seed \#(id)"},"#
      text += #""inverse":{"type":"RemoveTodo","payload":{"id":\#(id)}}}"# + "\n"
    }
    try Data(text.utf8).write(to: URL(fileURLWithPath: cli.store + "/journal.jsonl"))
  }

  /// The journal up to the end of its last complete line: what a reader reads.
  func completeJournal(_ cli: CLIHarness) throws -> Data {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: cli.store + "/journal.jsonl"))
    guard let last = bytes.lastIndex(of: 0x0A) else { return Data() }
    return bytes[...last]
  }

  /// A command that changes `todos`, and how to recognise its change.
  func command(_ number: Int, on todos: [JSONTodo]) -> ([String], ([JSONTodo]) -> Bool) {
    let open = todos.filter { !$0.done }
    let done = todos.filter(\.done)
    switch number % 11 {
    case 1 where !open.isEmpty:
      let id = open[number % open.count].id
      return (["done", "\(id)"], { $0.first { $0.id == id }?.done == true })
    case 2 where !todos.isEmpty:
      let id = todos[number % todos.count].id
      return (["remove", "\(id)"], { !$0.contains { $0.id == id } })
    case 3 where !done.isEmpty:
      let id = done[number % done.count].id
      return (["reopen", "\(id)"], { $0.first { $0.id == id }?.done == false })
    case 4 where !todos.isEmpty:
      let id = todos[number % todos.count].id
      let title = "edited \(number)"
      return (["edit", "\(id)", title], { $0.first { $0.id == id }?.title == title })
    case 5:
      return (["undo"], { $0 != todos })
    case 6 where !done.isEmpty:
      return (["clear"], { !$0.contains(where: \.done) })
    case 7 where !todos.isEmpty:
      let todo = todos[number % todos.count]
      let tag = "tag\(number)"
      return (
        ["tag", "\(todo.id)", tag], { $0.first { $0.id == todo.id }?.tags.contains(tag) == true }
      )
    case 8 where todos.contains { !$0.tags.isEmpty }:
      let tagged = todos.filter { !$0.tags.isEmpty }
      let todo = tagged[number % tagged.count]
      let tag = todo.tags[number % todo.tags.count]
      return (
        ["untag", "\(todo.id)", tag], { $0.first { $0.id == todo.id }?.tags.contains(tag) == false }
      )
    case 9 where !todos.isEmpty:
      let todo = todos[number % todos.count]
      let due = "2027-01-\(10 + number % 19)"
      let arguments = todo.due == due ? ["due", "\(todo.id)", "none"] : ["due", "\(todo.id)", due]
      let expected = todo.due == due ? nil : due
      return (arguments, { $0.first { $0.id == todo.id }.map { $0.due == expected } == true })
    case 10 where !todos.isEmpty:
      let todo = todos[number % todos.count]
      let levels = ["high", "medium", "low"]
      let level = levels.first { $0 != todo.priority } ?? "high"
      return (
        ["priority", "\(todo.id)", level], { $0.first { $0.id == todo.id }?.priority == level }
      )
    default:
      let title = "added \(number)"
      // Every other add also gives a tag, a due date and a priority, written in the same entry.
      let details =
        number.isMultiple(of: 2)
        ? [] : ["--tag", "t\(number)", "--due", "2027-02-01", "--priority", "low"]
      return (
        ["add", title] + details,
        { after in
          after.count == todos.count + 1 && after.last?.title == title
            && (details.isEmpty || after.last?.tags == ["t\(number)"])
        }
      )
    }
  }

  /// Runs changes under `fiu-run` with `failurePoints` failing at random, and after each checks,
  /// without faults, that the run kept the contract.
  func runUnderFaults(
    _ cli: CLIHarness, runs: Range<Int>, failurePoints: [String], probability: Double,
    messagesCanFail: Bool
  ) throws -> (succeeded: Int, failed: Int, killed: Int) {
    var counts = (succeeded: 0, failed: 0, killed: 0)
    let fiuRun = try #require(Self.fiuRun)
    let executable = try #require(CLIHarness.executable).path
    for number in runs {
      let before = try cli.todos()
      let journalBefore = try completeJournal(cli)
      let (arguments, isDone) = command(number, on: before)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: fiuRun)
      process.arguments =
        ["-x"]
        + failurePoints.flatMap { ["-c", "enable_random name=\($0),probability=\(probability)"] }
        + [executable, "--store", cli.store] + arguments
      // libfiu's preload can deadlock a process: its `fiu_fail` resolves functions lazily with
      // `dlsym` while holding its own lock, so a thread inside `dlopen` (holding the loader's
      // lock and calling `malloc`, which fiu wraps) and libdispatch's pool monitor (calling
      // `open`) wait for each other forever. Seen once, with both backtraces in libfiu; no code
      // of todo-cli's runs on either thread. A run that outlives a generous limit is killed and
      // checked as any killed command is: all of its change or none of it.
      let result = try cli.run(process, killingAfter: 120)
      let context = "\(arguments): exit \(result.status), \(result.error)"
      let after = try cli.todos()
      let changed = isDone(after)
      if result.killed {
        #expect(changed || after == before, "\(context): killed, and left part of its change")
        counts.killed += 1
        continue
      }
      #expect(!result.signaled, "\(context): crashed")
      if result.status == 0 { counts.succeeded += 1 } else { counts.failed += 1 }
      if result.status == 0 {
        #expect(changed, "\(context): exit 0 but the change is missing")
        if arguments[0] == "add" {
          #expect(result.output == "\(after.last?.id ?? -1)\n", "\(context): no id printed")
        }
      } else if result.error.contains("may or may not be saved") {
        #expect(result.status == 1, "\(context)")
      } else if result.error.contains("the change was saved") {
        #expect(result.status == 1, "\(context)")
        #expect(changed, "\(context): said saved, but the change is missing")
      } else if result.error.isEmpty && messagesCanFail {
        // Its message could not be written either: nothing left to check but that the
        // store still loads, which `todos()` did.
        #expect(result.status == 1, "\(context)")
      } else {
        #expect(result.status == 1, "\(context)")
        #expect(after == before, "\(context): failed but changed the list")
        #expect(try completeJournal(cli) == journalBefore, "\(context): the journal changed")
      }
    }
    return counts
  }

  @Test("A run that outlives its limit is killed, and says so")
  func runPastItsLimitIsKilled() throws {
    let cli = try CLIHarness()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sleep")
    process.arguments = ["600"]
    let result = try cli.run(process, killingAfter: 0.2)
    #expect(result.killed)
    #expect(result.signaled && result.status == SIGKILL)
  }

  @Test(
    "Under random disk faults (fiu-run), every run is saved with exit 0 or changes nothing",
    .enabled(if: fiuRun != nil))
  func randomDiskFaults() throws {
    let cli = try CLIHarness()
    try seed(cli, count: 195)
    let disk = try runUnderFaults(
      cli, runs: 0..<60,
      failurePoints: [
        "posix/io/rw/pwrite", "posix/io/sync/fsync", "posix/io/dir/rename",
        "posix/io/rw/ftruncate", "posix/io/dir/unlink", "posix/io/oc/close",
      ],
      probability: 0.25, messagesCanFail: false)
    let output = try runUnderFaults(
      cli, runs: 60..<90, failurePoints: ["posix/io/rw/write", "posix/io/rw/pwrite"],
      probability: 0.3, messagesCanFail: true)
    // A hang of todo-cli's own would show in most runs; libfiu's deadlock is a rare race.
    #expect(disk.killed + output.killed <= 1, "runs hung: \(disk), \(output)")
    // Both outcomes occurred, so the faults really were injected.
    #expect(disk.succeeded > 0 && disk.failed > 0, "\(disk)")
    #expect(output.succeeded > 0 && output.failed > 0, "\(output)")
    let history = try cli.run("history")
    #expect(history.status == 0, "\(history.error)")
    #expect(history.output.split(separator: "\n").count > 200, "the runs crossed a snapshot")
    #expect(FileManager.default.fileExists(atPath: cli.store + "/snapshot"))
    #expect(try cli.run("add", "after the faults").status == 0)
  }
}

extension CLIHarness {
  /// Runs `process` with its standard error going to a file, keeping its standard output.
  func run(redirectingErrorOf process: Process) throws -> Result {
    let url = directory.appendingPathComponent("\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let error = try FileHandle(forWritingTo: url)
    process.standardError = error
    try process.run()
    process.waitUntilExit()
    try error.close()
    return Result(
      status: process.terminationStatus, output: "",
      error: String(decoding: try Data(contentsOf: url), as: UTF8.self),
      signaled: process.terminationReason == .uncaughtSignal)
  }
}
