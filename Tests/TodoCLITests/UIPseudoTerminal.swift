import Foundation
import Glibc

/// A program running in a pseudo-terminal, the way a user's shell runs it.
///
/// The child gets its own session with the pseudo-terminal as its controlling terminal, so it
/// sees a real tty on standard input and output, receives `SIGWINCH` when the size changes, and
/// its raw-mode settings can be read back from the master side after it exits.
final class UIPseudoTerminal {
  enum Failure: Error, CustomStringConvertible {
    case system(String, Int32)
    case timeout(waitingFor: String, output: String)

    var description: String {
      switch self {
      case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
      case .timeout(let expected, let output):
        "timed out waiting for \(expected.debugDescription); output so far:\n"
          + output.debugDescription
      }
    }
  }

  /// glibc's `POSIX_SPAWN_SETSID` (since 2.26), which Swift does not import because glibc hides
  /// it behind `_GNU_SOURCE`.
  private static let spawnSetSID: Int16 = 0x80

  let process: pid_t
  private let master: Int32
  /// Kept open so the master never reports a hang-up before the child has opened its side.
  private let slave: Int32
  /// Everything the program has written so far.
  private(set) var output: [UInt8] = []
  private var exitStatus: Int32?

  /// Starts `executable` with `arguments` in a new pseudo-terminal of `width` × `height` cells.
  init(
    executable: String, arguments: [String], environment: [String: String] = [:],
    width: UInt16 = 80, height: UInt16 = 24
  ) throws {
    var master: Int32 = -1
    var slave: Int32 = -1
    var size = winsize(ws_row: height, ws_col: width, ws_xpixel: 0, ws_ypixel: 0)
    guard openpty(&master, &slave, nil, nil, &size) == 0 else {
      throw Failure.system("openpty", errno)
    }
    guard let name = ttyname(slave).map({ String(cString: $0) }) else {
      close(master)
      close(slave)
      throw Failure.system("ttyname", errno)
    }
    self.master = master
    self.slave = slave

    // posix_spawn instead of fork: nothing runs in the child between the fork and the exec, which
    // is the only safe way to start a process from a multi-threaded test runner.
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addclose(&actions, master)
    // Opened after the new session starts, the terminal becomes the child's controlling terminal.
    posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Self.spawnSetSID)

    var environmentValues = ProcessInfo.processInfo.environment
    environmentValues["TERM"] = "xterm-256color"
    environmentValues.merge(environment) { $1 }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environmentValues.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard result == 0 else {
      close(master)
      close(slave)
      throw Failure.system("posix_spawn \(executable)", result)
    }
    process = pid
  }

  deinit {
    if exitStatus == nil {
      kill(process, SIGKILL)
      var status: Int32 = 0
      waitpid(process, &status, 0)
    }
    close(master)
    close(slave)
  }

  /// The output decoded as UTF-8.
  var text: String { String(decoding: output, as: UTF8.self) }

  /// Sends bytes as if typed.
  func send(_ text: String) throws {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
      guard written > 0 else { throw Failure.system("write", errno) }
      bytes = bytes.dropFirst(written)
    }
  }

  /// Reads output until `expected` appears after the first `after` bytes, or the deadline passes.
  ///
  /// - Returns: The offset just past the match, to wait for the next output after it.
  @discardableResult
  func waitFor(_ expected: String, after start: Int = 0, timeout: Duration = .seconds(20)) throws
    -> Int
  {
    let deadline = ContinuousClock.now + timeout
    let needle = Array(expected.utf8)
    while true {
      if let range = Self.find(needle, in: output, from: start) { return range }
      guard ContinuousClock.now < deadline, readAvailable(until: deadline) else {
        throw Failure.timeout(waitingFor: expected, output: text)
      }
    }
  }

  /// Reads until the program exits, and returns its exit status (128 + signal if killed).
  func waitForExit(timeout: Duration = .seconds(20)) throws -> Int32 {
    let deadline = ContinuousClock.now + timeout
    while true {
      var status: Int32 = 0
      let result = waitpid(process, &status, WNOHANG)
      if result == process {
        // Drain what the program wrote just before exiting.
        while readAvailable(until: ContinuousClock.now + .milliseconds(50)) {}
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        exitStatus = code
        return code
      }
      guard ContinuousClock.now < deadline else {
        throw Failure.timeout(waitingFor: "exit", output: text)
      }
      _ = readAvailable(until: min(deadline, ContinuousClock.now + .milliseconds(20)))
    }
  }

  /// Changes the terminal's size, which sends `SIGWINCH` to the program.
  func resize(width: UInt16, height: UInt16) throws {
    var size = winsize(ws_row: height, ws_col: width, ws_xpixel: 0, ws_ypixel: 0)
    guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else {
      throw Failure.system("ioctl(TIOCSWINSZ)", errno)
    }
  }

  /// The terminal's current modes, as the program left them.
  func attributes() throws -> termios {
    var modes = termios()
    guard tcgetattr(master, &modes) == 0 else { throw Failure.system("tcgetattr", errno) }
    return modes
  }

  /// Waits for output until `deadline`; returns `false` if none came or the terminal closed.
  private func readAvailable(until deadline: ContinuousClock.Instant) -> Bool {
    let remaining = ContinuousClock.now.duration(to: deadline)
    let milliseconds =
      max(Int32(remaining.components.seconds * 1000), 0)
      + Int32(remaining.components.attoseconds / 1_000_000_000_000_000)
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, max(milliseconds, 0)) > 0 else { return false }
    var buffer = [UInt8](repeating: 0, count: 65536)
    let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
    guard count > 0 else { return false }
    output += buffer[0..<count]
    return true
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
    var index = max(start, 0)
    while index + needle.count <= haystack.count {
      if haystack[index..<(index + needle.count)].elementsEqual(needle) {
        return index + needle.count
      }
      index += 1
    }
    return nil
  }
}
