import StateStoreUI
import TerminalKit
import Testing

@testable import TodoCore

@MainActor
@Suite("Terminal UI: screens are views connected while they are drawn")
struct ScreenBindingTests {
  private let titles = ["Buy milk", "Call mom", "Water plants"]

  private func screens(_ ui: TerminalUIHarness) -> [any TodoScreen] {
    ui.app.navigator.visibleRoutables.compactMap { $0 as? any TodoScreen }
  }

  private func visibility(_ ui: TerminalUIHarness) -> [String: Bool] {
    Dictionary(uniqueKeysWithValues: screens(ui).map { ($0.routeIdentifier, $0.isVisible) })
  }

  @Test("the list is connected at start, and stays connected under a modal box")
  func listUnderModal() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles))
    #expect(visibility(ui) == ["list": true])
    await ui.press(.character("a"))
    #expect(visibility(ui) == ["list": true, "add": true])
    await ui.press(.escape)
    #expect(visibility(ui) == ["list": true])
  }

  @Test("a pushed screen disconnects the list; going back reconnects it with the current rows")
  func listUnderPushedScreen() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles))
    await ui.press(.down, .enter)
    #expect(visibility(ui) == ["list": false, "detail": true])
    await ui.press(.space)
    await ui.press(.character("?"))
    #expect(visibility(ui) == ["list": false, "detail": true, "help": true])
    await ui.press(.escape, .character("q"))
    #expect(visibility(ui) == ["list": true])
    #expect(ui.line(containing: "Call mom") == "> [x] 2  Call mom")
  }

  @Test("a change made while the list is hidden reaches it once it is drawn again")
  func hiddenListCatchesUp() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles))
    await ui.press(.down, .enter)
    await ui.app.save(EditTitle(id: 1, title: "Buy oat milk"))
    await ui.press(.character("q"))
    #expect(ui.line(containing: "Buy oat milk") == "  [ ] 1  Buy oat milk")
    #expect(ui.line(containing: "Call mom")?.hasPrefix(">") == true)
  }

  @Test("the detail screen renders the state's todo as it changes, and its removal")
  func detailFollowsItsTodo() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles), width: 60, height: 12)
    await ui.press(.enter)
    #expect(ui.text.contains("open"))
    await ui.app.save(SetDone(id: 1, done: true))
    #expect(ui.text.contains("done"))
    await ui.app.save(RemoveTodo(id: 1))
    #expect(ui.text.contains("Todo 1 no longer exists. Press q to go back."))
  }

  @Test("the title being typed is local state: it never reaches the app state or the log")
  func typedTitleIsLocal() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles))
    var applied: [String] = []
    let observation = ui.app.store.observeUpdates { update in
      applied.append("\(type(of: update.updater))")
    }
    let before = ui.state
    await ui.press(.character("a"))
    await ui.type("Read a book")
    await ui.press(.left, .backspace)
    #expect(applied.isEmpty)
    #expect(ui.state == before)
    let screen = try #require(ui.app.navigator.topmostRoutable as? TitleEntryScreen)
    #expect(screen.field.text == "Read a bok")
    await ui.press(.enter)
    #expect(applied.last == "AddTodo")
    _ = observation
  }

  @Test("a screen's view is released with the screen when it leaves the route")
  func viewsAreReleased() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles))
    await ui.press(.character("d"))
    weak let confirm = ui.app.navigator.topmostRoutable as? ConfirmScreen
    #expect(confirm?.isVisible == true)
    await ui.press(.character("n"))
    #expect(confirm == nil)
  }
}
