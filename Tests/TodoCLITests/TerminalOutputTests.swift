import Foundation
import Testing

/// What `todo-cli` prints when standard output is a terminal, and when it is not.
@Suite("Titles on a terminal", .serialized)
struct TerminalOutputTests {
  /// A title that, sent raw, would clear the screen, ring the bell and set the window title.
  static let hostileTitle = "pay\u{1B}[2J\u{7}\u{1B}]0;owned\u{7} rent\u{9B}1m"

  /// A store whose one todo has the hostile title, added as a user would.
  static func storeWithHostileTitle() throws -> CLIHarness {
    let cli = try CLIHarness()
    let added = try cli.run("add", Self.hostileTitle)
    #expect(added.status == 0, "add failed: \(added.error)")
    return cli
  }

  @Test("list on a terminal shows control characters escaped")
  func listOnATerminalIsEscaped() throws {
    let cli = try Self.storeWithHostileTitle()
    let executable = try #require(CLIHarness.executable).path
    let terminal = try UIPseudoTerminal(
      executable: executable, arguments: ["--store", cli.store, "list"])
    #expect(try terminal.waitForExit() == 0)
    let shown = terminal.text
    #expect(shown.contains(#"pay\e[2J\u{7}\e]0;owned\u{7} rent\u{9B}1m"#))
    #expect(!shown.unicodeScalars.contains("\u{1B}"), "no raw escape reaches the terminal")
    #expect(!shown.unicodeScalars.contains("\u{7}"))
    #expect(!shown.unicodeScalars.contains("\u{9B}"))
  }

  @Test("history and undo on a terminal show control characters escaped")
  func historyAndUndoOnATerminalAreEscaped() throws {
    let cli = try Self.storeWithHostileTitle()
    let executable = try #require(CLIHarness.executable).path
    for command in ["history", "undo"] {
      let terminal = try UIPseudoTerminal(
        executable: executable, arguments: ["--store", cli.store, command])
      #expect(try terminal.waitForExit() == 0)
      #expect(!terminal.text.unicodeScalars.contains("\u{1B}"), "\(command) sent a raw escape")
      #expect(!terminal.text.unicodeScalars.contains("\u{9B}"), "\(command) sent a raw CSI")
    }
  }

  @Test("list into a pipe or file, and --json anywhere, keep titles exact")
  func pipesAndJSONAreExact() throws {
    let cli = try Self.storeWithHostileTitle()
    let listed = try cli.run("list")
    #expect(listed.output == "1 [ ] \(Self.hostileTitle)\n")
    #expect(try cli.todos().map(\.title) == [Self.hostileTitle])
    let executable = try #require(CLIHarness.executable).path
    let terminal = try UIPseudoTerminal(
      executable: executable, arguments: ["--store", cli.store, "list", "--json"])
    #expect(try terminal.waitForExit() == 0)
    #expect(terminal.text.contains(#"pay\u001b[2J\u0007\u001b]0;owned\u0007 rent"#))
  }
}
