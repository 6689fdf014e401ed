import Foundation
import Inspector
import TerminalKit
import Testing

/// The built `statestore-inspect` in a real terminal: tmux runs it, keys are typed with
/// `send-keys`, and what the terminal shows is read with `capture-pane`.
///
/// Every wait is for something the interface must show, with a generous deadline.
@Suite(
  "statestore-inspect's terminal interface in tmux", .serialized,
  .enabled(if: TmuxSession.tmux != nil, "tmux is not installed"))
struct TerminalInterfaceTests {
  static let inspector = InspectorHarness.executable("statestore-inspect")

  /// A shell command line that runs the inspector on `arguments`, then says how it exited and
  /// waits, so that the window stays to be read.
  private func command(_ arguments: [String]) throws -> String {
    let inspector = try #require(Self.inspector)
    let quoted = ([inspector.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
    return quoted + "; echo \"exited with $?\"; sleep 600"
  }

  @Test("On a terminal, the log opens in the interface; its keys browse it; q quits with 0")
  func browse() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("shop.jsonl", shopLog)
    let tmux = try TmuxSession(try command([log]), width: 80, height: 16)
    let screen = try tmux.waitFor("shop.jsonl: 4 entries")
    #expect(screen.contains { $0.contains("2  00:01:41.500  account  Rename") })
    #expect(screen.last?.hasPrefix("j/k move  enter open  / filter") == true)

    try tmux.press("/")
    try tmux.type("type:add")
    try tmux.press("Enter")
    try tmux.waitFor("filter: type:add (2 of 4)")
    try tmux.press("j", "Enter")
    try tmux.waitFor("seq 3 · AddItem · cause user: tap")
    try tmux.press("s")
    try tmux.waitFor("▾ cart: [2 items]")
    try tmux.press("Enter")
    try tmux.waitFor(#"▸ cart: ["tea","milk"]"#)
    try tmux.press("?")
    try tmux.waitFor("Keys: entry")
    try tmux.press("q", "Escape", "Escape", "m", "g", "c")
    try tmux.waitFor("state after 1 → after 3: 2 changes")
    try tmux.press("h")
    try tmux.waitFor("where /cart/1 changed: 2 changes")
    try tmux.press("Escape", "Escape", "q")
    let after = try tmux.waitFor("exited with 0")
    #expect(!after.contains { $0.contains("j/k move") }, "the terminal's own screen is back")
  }

  @Test("Resized down to 12×4 and back, the screen is exactly what the frame holds")
  func resizing() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("shop.jsonl", shopLog)
    let tmux = try TmuxSession(try command([log]), width: 80, height: 16)
    try tmux.waitFor("shop.jsonl: 4 entries")
    try tmux.press("j", "Enter", "s")
    try tmux.waitFor("▾ user: {1 key}")
    var expected = BrowserHarness(log: shopLog, width: 12, height: 4)
    expected.press(.down, .enter, .character("s"))
    let small = expected.lines()
    try tmux.resize(width: 12, height: 4)
    try tmux.waitForScreen("the 12×4 frame \(small)") { $0 == small }
    try tmux.resize(width: 50, height: 9)
    expected.width = 50
    expected.height = 9
    let medium = expected.lines()
    try tmux.waitForScreen("the 50×9 frame \(medium)") { $0 == medium }
    try tmux.resize(width: 80, height: 16)
    expected.width = 80
    expected.height = 16
    let large = expected.lines()
    try tmux.waitForScreen("the 80×16 frame \(large)") { $0 == large }
    try tmux.press("C-c")
    try tmux.waitFor("exited with 130")
  }

  @Test("Wide characters and emoji show as the frame lays them out")
  func unicode() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("notes.jsonl", unicodeLog)
    let tmux = try TmuxSession(try command([log]), width: 70, height: 12)
    let screen = try tmux.waitFor("notes.jsonl: 3 entries")
    #expect(screen.contains { $0.contains("日本語") && $0.contains("Add📝") })
    #expect(screen.contains { $0.contains(#"\u{1b}[2JClear"#) }, "escapes shown, not obeyed")
    try tmux.press("Enter", "s")
    try tmux.waitFor(#"[0]: "読む：吾輩は猫である""#)
    try tmux.press("Escape", "q")
    try tmux.waitFor("exited with 0")
  }

  @Test("With --follow, an entry appended to the log appears while the interface is open")
  func follow() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("live.jsonl", shopLog)
    let tmux = try TmuxSession(try command(["--follow", log]), width: 80, height: 16)
    try tmux.waitFor("live.jsonl: 4 entries, following")
    let handle = try #require(FileHandle(forWritingAtPath: log))
    defer { try? handle.close() }
    handle.seekToEndOfFile()
    handle.write(
      Data(
        (#"{"seq":5,"type":"Checkout","time":120.000,"payload":{},"diff":[]}"# + "\n").utf8))
    let started = ContinuousClock.now
    let screen = try tmux.waitFor("Checkout")
    let latency = ContinuousClock.now - started
    #expect(screen.contains { $0.hasPrefix(">") && $0.contains("Checkout") })
    #expect(screen.first == "live.jsonl: 5 entries, following")
    print("a new entry showed after \(latency)")
    try tmux.press("q")
    try tmux.waitFor("exited with 0")
  }

  @Test("--tui without a terminal is refused with exit status 2; a pipe still gets the text")
  func withoutATerminal() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("shop.jsonl", shopLog)
    let inspector = try #require(Self.inspector)
    let refused = try harness.runProcess(inspector, ["--tui", log])
    #expect(refused.status == 2)
    #expect(refused.error.contains("is not a terminal; --tui needs an interactive terminal"))
    let plain = try harness.runProcess(inspector, [log])
    #expect(plain.status == 0)
    #expect(plain.output.contains("2  1970-01-01T00:01:41.500Z  account  Rename"))
  }
}
