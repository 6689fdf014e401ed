import TerminalKit
import Testing

@testable import TodoCore

@MainActor
@Suite("Terminal UI: detail, add, edit, confirm and help")
struct ModalScreenTests {
  private let titles = ["Buy milk", "Call mom", "Water plants"]

  @Test("a opens add; typed text shows; Enter saves, selects the new todo and closes")
  func add() async throws {
    let storage = storage(titles: titles)
    let ui = try await TerminalUIHarness(storage: storage, width: 80)
    await ui.press(.character("a"))
    #expect(ui.route == ["list", "add"])
    #expect(ui.topLine == "list › add")
    #expect(ui.bottomLine == "enter save  esc cancel")
    await ui.type("Read 漢字 📚")
    #expect(ui.text.contains("Title: Read 漢字 📚"))
    #expect(ui.frame.cursor != nil)
    await ui.press(.enter)
    #expect(ui.route == ["list"])
    #expect(ui.frame.cursor == nil)
    #expect(try #require(ui.line(containing: "Read 漢字 📚")).hasPrefix("> [ ] 4"))
    #expect(try storage.load().todos[id: 4]?.title == "Read 漢字 📚")
  }

  @Test("Esc cancels add without saving; a blank title is refused and the box stays")
  func addCancelAndBlank() async throws {
    let storage = storage(titles: titles)
    let ui = try await TerminalUIHarness(storage: storage)
    await ui.press(.character("a"))
    await ui.type("   ")
    await ui.press(.enter)
    #expect(ui.route == ["list", "add"])
    #expect(ui.text.contains("the title is empty"))
    await ui.type("x")
    await ui.press(.escape)
    #expect(ui.route == ["list"])
    #expect(try storage.load().todos.count == 3)
  }

  @Test("Enter opens the detail; q and Esc go back")
  func detail() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles, doneCount: 2), width: 80)
    await ui.press(.down, .enter)
    #expect(ui.route == ["list", "detail"])
    #expect(ui.topLine == "list › detail")
    #expect(ui.text.contains("Call mom"))
    #expect(ui.text.contains("done"))
    #expect(
      ui.bottomLine == "e edit  space toggle  p priority  D due  d delete  q/esc back  ? help")
    await ui.press(.character("q"))
    #expect(ui.route == ["list"])
    await ui.press(.enter)
    await ui.press(.escape)
    #expect(ui.route == ["list"])
  }

  @Test("The detail wraps a long title instead of cutting it")
  func detailWraps() async throws {
    let long = "Plan the trip: " + String(repeating: "漢字 ", count: 20) + "END"
    let ui = try await TerminalUIHarness(storage: storage(titles: [long]), width: 40)
    await ui.press(.enter)
    #expect(ui.text.contains("END"))
    for row in ui.frame.rows { #expect(row.displayWidth == 40) }
  }

  @Test("Space in the detail toggles and saves")
  func detailToggle() async throws {
    let storage = storage(titles: titles)
    let ui = try await TerminalUIHarness(storage: storage)
    await ui.press(.enter, .space)
    #expect(ui.text.contains("done"))
    #expect(try storage.load().todos[id: 1]?.done == true)
  }

  @Test("d in the detail deletes the todo and goes back to the list")
  func detailDelete() async throws {
    let storage = storage(titles: titles)
    let ui = try await TerminalUIHarness(storage: storage)
    await ui.press(.down, .enter, .character("d"))
    #expect(ui.route == ["list"])
    #expect(ui.line(containing: "Call mom") == nil)
    #expect(try storage.load().todos.map(\.id) == [1, 3])
  }

  @Test("e in the detail edits the title: prefilled, Enter saves, Esc cancels")
  func edit() async throws {
    let storage = storage(titles: titles)
    let ui = try await TerminalUIHarness(storage: storage)
    await ui.press(.enter, .character("e"))
    #expect(ui.route == ["list", "detail", "edit"])
    #expect(ui.topLine == "list › detail › edit")
    #expect(ui.text.contains("Title: Buy milk"))
    await ui.press(.backspace, .backspace, .backspace, .backspace)
    await ui.type("oat milk")
    await ui.press(.enter)
    #expect(ui.route == ["list", "detail"])
    #expect(try storage.load().todos[id: 1]?.title == "Buy oat milk")
    await ui.press(.character("e"))
    await ui.type(" and bread")
    await ui.press(.escape)
    #expect(ui.route == ["list", "detail"])
    #expect(try storage.load().todos[id: 1]?.title == "Buy oat milk")
    await ui.press(.character("q"))
    #expect(try #require(ui.line(containing: "Buy oat milk")).hasPrefix(">"))
  }

  @Test("d on the list asks first: n keeps the todo, y deletes it")
  func confirm() async throws {
    let storage = storage(titles: titles)
    let ui = try await TerminalUIHarness(storage: storage, width: 80)
    await ui.press(.down, .character("d"))
    #expect(ui.route == ["list", "confirm"])
    #expect(ui.topLine == "list › confirm")
    #expect(ui.text.contains("Delete todo 2 “Call mom”?"))
    #expect(ui.bottomLine == "y delete  n keep")
    await ui.press(.character("n"))
    #expect(ui.route == ["list"])
    #expect(try storage.load().todos.count == 3)
    await ui.press(.character("d"), .character("y"))
    #expect(ui.route == ["list"])
    #expect(ui.line(containing: "Call mom") == nil)
    #expect(try storage.load().todos.map(\.id) == [1, 3])
    #expect(try #require(ui.line(containing: "Water plants")).hasPrefix(">"))
  }

  @Test("Keys other than y and n leave the question open")
  func confirmIgnoresOtherKeys() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles))
    await ui.press(.character("d"), .character("q"), .character("j"), .enter)
    #expect(ui.route == ["list", "confirm"])
    #expect(ui.exitCode == nil)
  }

  @Test("? opens help with the keys of the screen below; q and Esc close it")
  func help() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles), width: 80, height: 20)
    await ui.press(.character("?"))
    #expect(ui.route == ["list", "help"])
    #expect(ui.topLine == "list › help")
    #expect(ui.text.contains("Keys: list"))
    #expect(ui.text.contains("add a todo"))
    #expect(ui.bottomLine == "q/esc close")
    await ui.press(.character("q"))
    #expect(ui.route == ["list"])
    #expect(ui.exitCode == nil)
    await ui.press(.enter, .character("?"))
    #expect(ui.route == ["list", "detail", "help"])
    #expect(ui.text.contains("Keys: detail"))
    #expect(ui.text.contains("edit the title"))
    await ui.press(.escape)
    #expect(ui.route == ["list", "detail"])
  }

  @Test("A modal box is drawn over the list, which stays visible around it")
  func modalOverlay() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles), width: 80, height: 20)
    await ui.press(.character("a"))
    #expect(ui.text.contains("┌ Add a todo ─"))
    #expect(ui.text.contains("> [ ] 1  Buy milk"))
  }

  @Test("A screen that leaves the route is released, with its subscription")
  func screensAreReleased() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles))
    await ui.press(.enter)
    weak let detail = ui.app.navigator.topmostRoutable as? DetailScreen
    #expect(detail != nil)
    await ui.press(.character("q"))
    #expect(detail == nil)
  }
}
