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

  @Test(
    "A fatal signal restores the terminal before the process dies of it",
    arguments: [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP])
  func fatalSignal(number: Int32) throws {
    let store = try StoreDirectory()
    // Through a shell that turns core dumps off and then becomes the UI (same process id), so
    // the test leaves no core files behind and does not wait for one to be written.
    let terminal = try UIPseudoTerminal(
      executable: "/bin/sh",
      arguments: [
        "-c", "ulimit -c 0; exec \"$0\" \"$@\"", try #require(Self.executable), "--store",
        store.path, "ui",
      ])
    try terminal.waitFor("q quit")
    #expect(try terminal.attributes().c_lflag & tcflag_t(ICANON | ECHO) == 0, "raw mode first")
    let mark = terminal.output.count
    kill(terminal.process, number)
    #expect(try terminal.waitForExit() == 128 + number, "the exit status still names the signal")
    let after = String(decoding: terminal.output[mark...], as: UTF8.self)
    #expect(after.contains(Self.leaveAlternateScreen))
    #expect(after.contains("\u{1B}[?25h"), "the cursor is shown again")
    let modes = try terminal.attributes()
    #expect(modes.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
  }

  @Test("cafe and then a combining acute in a separate read is saved as café")
  func combiningAccentInItsOwnRead() throws {
    let store = try StoreDirectory()
    let terminal = try startUI(store: store.path)
    try terminal.send("a")
    var mark = try terminal.waitFor("Add a todo")
    try terminal.send("cafe")
    // Waiting for the echo makes the accent a read of its own: the UI has consumed "cafe".
    mark = try terminal.waitFor("cafe", after: mark)
    try terminal.send("\u{301}")
    mark = try terminal.waitFor("e\u{301}", after: mark)
    try terminal.send("\r")
    try terminal.waitFor("1 of 1", after: mark)
    try terminal.send("q")
    #expect(try terminal.waitForExit() == 0)
    let json = try run(["list", "--json"], store: store.path)
    let todos = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    let title = try #require(todos.first?["title"] as? String)
    #expect(todos.count == 1)
    #expect(title.precomposedStringWithCanonicalMapping == "caf\u{E9}")
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

  @Test("Another process's change shows within a second, without a key, keeping typed text")
  func liveUpdate() throws {
    let store = try StoreDirectory()
    let terminal = try startUI(store: store.path)
    try terminal.send("a")
    var mark = try terminal.waitFor("Add a todo")
    try terminal.send("half")
    mark = try terminal.waitFor("half", after: mark)
    _ = try run(["add", "From elsewhere", "--tag", "remote"], store: store.path)
    let saved = ContinuousClock.now
    mark = try terminal.waitFor("From elsewhere", after: mark)
    #expect(ContinuousClock.now - saved < .seconds(1), "shown within a second")
    try terminal.send(" typed\r")
    try terminal.waitFor("2 of 2", after: mark)
    try terminal.send("q")
    #expect(try terminal.waitForExit() == 0)
    let listed = try run(["list"], store: store.path)
    #expect(listed == "1 [ ] From elsewhere  #remote\n2 [ ] half typed\n")
  }

  @Test("The list's new keys and the detail's priority work in a real terminal")
  func newKeys() throws {
    let store = try StoreDirectory()
    _ = try run(["add", "Buy milk", "--tag", "home"], store: store.path)
    _ = try run(["add", "Write report", "--priority", "high"], store: store.path)
    let terminal = try startUI(store: store.path)
    var mark = try terminal.waitFor("#home")
    try terminal.send("/")
    mark = try terminal.waitFor("esc clear filter", after: mark)
    try terminal.send("MILK")
    mark = try terminal.waitFor("MILK", after: mark)
    try terminal.send("\r")
    mark = try terminal.waitFor("q quit", after: mark)
    try terminal.send("s")
    mark = try terminal.waitFor("sort: due", after: mark)
    try terminal.send("\rp")
    mark = try terminal.waitFor("high", after: mark)
    try terminal.send("q")
    mark = try terminal.waitFor("q quit", after: mark)
    try terminal.send("q")
    #expect(try terminal.waitForExit() == 0)
    #expect(
      try run(["list", "--sort", "priority"], store: store.path).hasPrefix("1 [ ] Buy milk  !high"))
  }

  @Test("ui --record writes the UI's changes, and replay gives the same list")
  func recordTheUI() throws {
    let store = try StoreDirectory()
    let log = store.path + "/session.jsonl"
    let terminal = try UIPseudoTerminal(
      executable: try #require(Self.executable),
      arguments: ["--store", store.path + "/store", "--record", log, "ui"])
    var mark = try terminal.waitFor("q quit")
    try terminal.send("a")
    mark = try terminal.waitFor("Add a todo", after: mark)
    try terminal.send("Recorded\r")
    mark = try terminal.waitFor("1 of 1", after: mark)
    try terminal.send("\rp")
    mark = try terminal.waitFor("high", after: mark)
    try terminal.send("qq")
    #expect(try terminal.waitForExit() == 0)
    let recorded = try String(contentsOfFile: log, encoding: .utf8)
    #expect(recorded.contains(#""type":"AddTodo""#))
    #expect(recorded.contains(#""type":"SetPriority""#))
    #expect(
      try run(["replay", log, "--json"], store: store.path + "/store")
        == run(["list", "--json"], store: store.path + "/store"))
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
