import Foundation
import Glibc
import Testing

/// Runs the built `todo-cli ui` in a pseudo-terminal, as a user would.
///
/// Every wait is for output the UI must print, with a generous deadline; nothing sleeps.
@Suite("todo-cli ui in a pseudo-terminal", .serialized)
struct UITerminalTests {
  private static let leaveAlternateScreen = "\u{1B}[?1049l"
  private static let enterAlternateScreen = "\u{1B}[?1049h"

  /// The built executable, next to the test bundle in the build products directory.
  private static let executable: String? = {
    let directories = [
      Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL,
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ]
    return directories.map { $0.appendingPathComponent("todo-cli").path }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  private final class StoreDirectory {
    let path: String
    init() throws {
      path =
        FileManager.default.temporaryDirectory
        .appendingPathComponent("todo-cli-ui-\(UUID().uuidString)").path
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
  }

  /// Runs a plain `todo-cli` command on `store` and returns what it printed.
  private func run(_ arguments: [String], store: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Self.executable))
    process.arguments = ["--store", store] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  private func startUI(store: String) throws -> UIPseudoTerminal {
    let terminal = try UIPseudoTerminal(
      executable: try #require(Self.executable), arguments: ["--store", store, "ui"])
    try terminal.waitFor("q quit")
    return terminal
  }

  @Test("Adding, toggling and quitting work, are saved at once and restore the terminal")
  func addToggleQuit() throws {
    let store = try StoreDirectory()
    let terminal = try startUI(store: store.path)
    let modes = try terminal.attributes()
    #expect(modes.c_lflag & tcflag_t(ICANON | ECHO) == 0, "raw mode while the UI runs")
    #expect(terminal.text.contains(Self.enterAlternateScreen))

    try terminal.send("a")
    var mark = try terminal.waitFor("Add a todo")
    try terminal.send("Buy milk 🥛\r")
    mark = try terminal.waitFor("Buy milk 🥛", after: mark)
    // Saved while the UI is still open: another process sees it.
    #expect(try run(["list", "--json"], store: store.path).contains("Buy milk 🥛"))

    try terminal.send(" ")
    try terminal.waitFor("x", after: mark)
    #expect(try run(["list", "--json"], store: store.path).contains("\"done\":true"))

    try terminal.send("q")
    #expect(try terminal.waitForExit() == 0)
    let output = terminal.text
    let leave = try #require(output.range(of: Self.leaveAlternateScreen, options: .backwards))
    #expect(!output[leave.upperBound...].contains("\u{1B}[?1049h"))
    let restored = try terminal.attributes()
    #expect(restored.c_lflag & tcflag_t(ICANON) != 0, "canonical mode is back after quitting")
    #expect(restored.c_lflag & tcflag_t(ECHO) != 0, "echo is back after quitting")
  }

  @Test("Ctrl-C and SIGTERM restore the terminal too", arguments: ["ctrl-c", "sigterm"])
  func interrupted(way: String) throws {
    let store = try StoreDirectory()
    let terminal = try startUI(store: store.path)
    if way == "ctrl-c" {
      try terminal.send("\u{03}")
    } else {
      kill(terminal.process, SIGTERM)
    }
    #expect(try terminal.waitForExit() == (way == "ctrl-c" ? 130 : 128 + SIGTERM))
    #expect(terminal.text.contains(Self.leaveAlternateScreen))
    #expect(try terminal.attributes().c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
  }

  @Test("A resize redraws the screen at the new size")
  func resize() throws {
    let store = try StoreDirectory()
    let terminal = try startUI(store: store.path)
    let mark = terminal.output.count
    try terminal.resize(width: 100, height: 30)
    // The full redraw clears the screen and puts the key line on the new last row.
    try terminal.waitFor("\u{1B}[30;1Hj/k move", after: mark)
    try terminal.send("q")
    #expect(try terminal.waitForExit() == 0)
  }

  @Test("Standard input that is not a terminal is refused with exit status 2")
  func notATerminal() throws {
    let store = try StoreDirectory()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Self.executable))
    process.arguments = ["--store", store.path, "ui"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let message = String(
      decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 2)
    #expect(message.contains("standard input is not a terminal"))
  }
}
