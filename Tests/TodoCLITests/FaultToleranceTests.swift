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
  @Test(
    "A change whose output goes to a full disk exits 3, says it was saved, and is saved",
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
    #expect(process.terminationStatus == 3)
    #expect(message.contains("The change was saved: do not run"), "\(message)")
    #expect(try cli.todos().map(\.title) == ["kept"])
  }

  @Test(
    "With its output and its messages on a full disk, a saved change still exits 3",
    .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
  func outputAndMessagesToFullDisk() throws {
    let cli = try CLIHarness()
    try cli.run("add", "first")
    for arguments in [["add", "kept"], ["undo"]] {
      let process = try cli.makeProcess(arguments: ["--store", cli.store] + arguments)
      let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
      process.standardOutput = full
      process.standardError = full
      try process.run()
      process.waitUntilExit()
      #expect(process.terminationReason == .exit, "\(arguments)")
      #expect(process.terminationStatus == 3, "\(arguments)")
    }
    // `add kept` was saved, and so was the `undo` that removed it again.
    #expect(try cli.todos().map(\.title) == ["first"])
    #expect(try cli.run("history").output.contains("undo 2: remove #2"))
  }

  @Test("Output into a closed pipe is exit 3 for a saved change, not a SIGPIPE death")
  func outputToClosedPipe() throws {
    let cli = try CLIHarness()
    let output = Pipe()
    try output.fileHandleForReading.close()
    let process = try cli.makeProcess(arguments: ["--store", cli.store, "add", "kept"])
    process.standardOutput = output
    let result = try cli.run(redirectingErrorOf: process)
    #expect(!result.signaled)
    #expect(result.status == 3)
    #expect(result.error.contains("Broken pipe"), "\(result.error)")
    #expect(result.error.contains("The change was saved"), "\(result.error)")
    #expect(try cli.todos().map(\.title) == ["kept"])
  }

  @Test("A listing into a closed pipe is exit 1: nothing was changed, and nothing arrived")
  func listingToClosedPipe() throws {
    let cli = try CLIHarness()
    try cli.run("add", "kept")
    let output = Pipe()
    try output.fileHandleForReading.close()
    let process = try cli.makeProcess(arguments: ["--store", cli.store, "list"])
    process.standardOutput = output
    let result = try cli.run(redirectingErrorOf: process)
    #expect(!result.signaled)
    #expect(result.status == 1)
    #expect(result.error.contains("Nothing was changed"), "\(result.error)")
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
    #expect(try mode(cli.store + "/journal-1.jsonl") == 0o600)
    #expect(try mode(cli.store + "/lock") == 0o600)
    #expect(chmod(cli.store + "/journal-1.jsonl", 0o644) == 0)
    #expect(try cli.run("done", "1").status == 0)
    #expect(try mode(cli.store + "/journal-1.jsonl") == 0o644)
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
