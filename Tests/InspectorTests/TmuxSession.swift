import Foundation
import Glibc

/// A program running in a tmux window of its own, read back with `capture-pane`: the screen as
/// the terminal shows it, after the terminal has interpreted every byte the program wrote.
///
/// Each session runs on a tmux server of its own (`-L`), so tests never touch the user's.
final class TmuxSession {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The `tmux` executable, or `nil` when it is not installed (the tests that need it skip).
  static let tmux: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin"]
    return directories.map { $0 + "/tmux" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }()

  private let server = "statestore-inspect-tests-\(UUID().uuidString)"

  /// Starts `command` (a shell command line) in a window of `width` × `height` cells.
  init(_ command: String, width: Int, height: Int) throws {
    try tmux([
      "new-session", "-d", "-s", "test", "-x", String(width), "-y", String(height), command,
    ])
  }

  deinit { _ = try? tmux(["kill-server"]) }

  /// Types `keys`, tmux key names such as `Enter`, `Escape`, `Down`, `C-c`.
  func press(_ keys: String...) throws {
    try tmux(["send-keys", "-t", "test"] + keys)
  }

  /// Types `text` literally.
  func type(_ text: String) throws {
    try tmux(["send-keys", "-t", "test", "-l", text])
  }

  /// Resizes the window, which sends the program `SIGWINCH`.
  func resize(width: Int, height: Int) throws {
    try tmux(["resize-window", "-t", "test", "-x", String(width), "-y", String(height)])
  }

  /// The screen, one string per row, without trailing spaces.
  func screen() throws -> [String] {
    let text = try tmux(["capture-pane", "-p", "-t", "test"])
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      var line = Substring(line)
      while line.last == " " { line.removeLast() }
      return String(line)
    }
    if lines.last == "" { lines.removeLast() }
    return lines
  }

  /// Reads the screen until `condition` holds of it, or fails after `timeout`.
  ///
  /// - Returns: The screen that satisfied it.
  @discardableResult
  func waitForScreen(
    _ what: String, timeout: Duration = .seconds(20), _ condition: ([String]) -> Bool
  ) throws -> [String] {
    let deadline = ContinuousClock.now + timeout
    var screen = try screen()
    while !condition(screen) {
      guard ContinuousClock.now < deadline else {
        throw Failure(
          description: "timed out waiting for \(what); the screen:\n"
            + screen.joined(separator: "\n"))
      }
      // The next look at the screen: tmux has no way to say that it changed.
      Thread.sleep(forTimeInterval: 0.02)
      screen = try self.screen()
    }
    return screen
  }

  /// Reads the screen until it shows `text`.
  @discardableResult
  func waitFor(_ text: String, timeout: Duration = .seconds(20)) throws -> [String] {
    try waitForScreen(text.debugDescription, timeout: timeout) { screen in
      screen.contains { $0.contains(text) }
    }
  }

  @discardableResult
  private func tmux(_ arguments: [String]) throws -> String {
    guard let tmux = Self.tmux else { throw Failure(description: "tmux is not installed") }
    // posix_spawn and waitpid rather than Foundation's Process: Process learns that a child
    // ended when a descriptor it shares with the child closes, and the tmux server that
    // `new-session` starts would keep that descriptor open for as long as it runs.
    let outputPath = FileManager.default.temporaryDirectory
      .appendingPathComponent("tmux-\(UUID().uuidString).out").path
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var environment = ProcessInfo.processInfo.environment
    environment.removeValue(forKey: "TMUX")
    environment["TERM"] = "xterm-256color"
    environment["LANG"] = "C.UTF-8"
    let argv = ([tmux, "-L", server, "-f", "/dev/null"] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    // The test runner's threads block most signals, and a child inherits that mask: the tmux
    // server would then never hear that its panes ended, nor could kill-server end it.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var signals = sigset_t()
    sigemptyset(&signals)
    posix_spawnattr_setsigmask(&attributes, &signals)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid: pid_t = 0
    let result = posix_spawn(&pid, tmux, &actions, &attributes, argv, envp)
    guard result == 0 else { throw Failure(description: "posix_spawn tmux: error \(result)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    guard status == 0 else {
      throw Failure(description: "tmux \(arguments.joined(separator: " ")): \(text)")
    }
    return text
  }
}
