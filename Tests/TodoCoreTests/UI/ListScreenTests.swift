import TerminalKit
import Testing

@testable import TodoCore

@MainActor
@Suite("Terminal UI: the list screen")
struct ListScreenTests {
  private let titles = ["Buy milk", "Call mom", "Water plants"]

  @Test("The list shows the breadcrumb, every todo, the selection and the keys")
  func initialFrame() async throws {
    let ui = try await TerminalUIHarness(
      storage: storage(titles: titles, doneCount: 1), width: 80, height: 10)
    #expect(ui.route == ["list"])
    #expect(
      ui.text == """
        list

        > [x] 1  Buy milk
          [ ] 2  Call mom
          [ ] 3  Water plants


          1 of 3 · 1 done

        j/k move  space toggle  a add  enter open  d delete  / t s view  ? help  q quit
        """)
  }

  @Test("An empty list says how to add a todo")
  func emptyList() async throws {
    let ui = try await TerminalUIHarness(storage: InMemoryTodoStorage())
    #expect(ui.text.contains("No todos yet. Press a to add one."))
  }

  @Test(
    "j, k and the arrow keys move the selection, stopping at the ends",
    arguments: [
      ([Key.character("j")], 2), ([.down, .down], 3), ([.down, .down, .down, .down], 3),
      ([.character("j"), .character("k")], 1), ([.up], 1), ([.down, .down, .up], 2),
    ])
  func movement(keys: [Key], selected: Int) async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles))
    for key in keys { await ui.press(key) }
    let line = try #require(ui.line(containing: titles[selected - 1]))
    #expect(line.hasPrefix(">"))
    #expect(ui.lines.filter { $0.hasPrefix(">") }.count == 1)
  }

  @Test("Arrow keys arrive as escape sequences and are decoded like the terminal's")
  func rawArrows() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles))
    await ui.send(bytes: Array("\u{1B}[B\u{1B}OB\u{1B}[A".utf8))
    #expect(try #require(ui.line(containing: "Call mom")).hasPrefix(">"))
  }

  @Test("Space toggles the selected todo and saves it at once")
  func toggle() async throws {
    let storage = storage(titles: titles)
    let ui = try await TerminalUIHarness(storage: storage)
    await ui.press(.down, .space)
    #expect(try #require(ui.line(containing: "Call mom")).contains("[x]"))
    #expect(try storage.load().todos[id: 2]?.done == true)
    await ui.press(.space)
    #expect(try #require(ui.line(containing: "Call mom")).contains("[ ]"))
    #expect(try storage.load().todos[id: 2]?.done == false)
  }

  @Test("q quits with exit status 0")
  func quit() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles))
    #expect(ui.exitCode == nil)
    await ui.press(.character("q"))
    #expect(ui.exitCode == 0)
  }

  @Test("Long titles are cut with an ellipsis at the edge, also with CJK and emoji")
  func truncation() async throws {
    let long = [
      "Read " + String(repeating: "漢字", count: 40),
      "Party " + String(repeating: "🎉👨‍👩‍👧", count: 30),
      "Plain " + String(repeating: "x", count: 100),
    ]
    let ui = try await TerminalUIHarness(storage: storage(titles: long), width: 41)
    for row in ui.frame.rows { #expect(row.displayWidth == 41) }
    for title in ["Read 漢字", "Party 🎉", "Plain xx"] {
      let line = try #require(ui.line(containing: title))
      #expect(line.hasSuffix("…"))
      #expect(line.displayWidth >= 40)
    }
    let cjk = try #require(ui.line(containing: "Read"))
    #expect(cjk.hasSuffix("漢字…") || cjk.hasSuffix("漢…"))
  }

  @Test("The list scrolls to keep the selection on screen")
  func scrolling() async throws {
    let many = (1...30).map { "Todo number \($0)" }
    let ui = try await TerminalUIHarness(storage: storage(titles: many), height: 10)
    for _ in 0..<20 { await ui.press(.character("j")) }
    #expect(try #require(ui.line(containing: "Todo number 21")).hasPrefix(">"))
    #expect(ui.line(containing: "Todo number 1 ") == nil)
    #expect(ui.text.contains("21 of 30"))
  }

  @Test(
    "A frame of any size fits its rows exactly", arguments: [(20, 5), (80, 24), (1, 1), (7, 3)])
  func sizes(width: Int, height: Int) async throws {
    let ui = try await TerminalUIHarness(
      storage: storage(titles: titles), width: width, height: height)
    let frame = ui.frame
    #expect(frame.rows.count == height)
    for row in frame.rows { #expect(row.displayWidth == width) }
  }
}
