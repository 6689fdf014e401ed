import Foundation
import StateStoreTesting
import TerminalKit
import Testing

@testable import TodoCore

/// A clock stopped at 2026-03-10 12:00 UTC.
let march10 = TodoClock.fixed(
  at: Date(timeIntervalSince1970: 1_773_144_000), timeZone: TimeZone(identifier: "UTC") ?? .current)

/// A storage with todos that have tags, due dates and priorities.
func detailedStorage() -> InMemoryTodoStorage {
  let adds: [AddTodo] = [
    AddTodo(id: 1, title: "Café au lait", tags: ["food"], due: CalendarDate("2026-03-01")),
    AddTodo(id: 2, title: "Write report", tags: ["work"], priority: .high),
    AddTodo(id: 3, title: "Buy milk", tags: ["food", "home"], due: CalendarDate("2026-03-20")),
  ]
  return InMemoryTodoStorage(changes: adds.map(AnyTodoChange.addTodo))
}

@MainActor
@Suite("Terminal UI: tags, due dates, priorities, filters and sort")
struct ListFiltersAndDatesTests {
  @Test("Rows show priority, due date (overdue marked) and tags, and cut the title first")
  func rows() async throws {
    let ui = try await TerminalUIHarness(storage: detailedStorage(), width: 80, clock: march10)
    #expect(ui.line(containing: "Café") == "> [ ] 1  Café au lait  OVERDUE 2026-03-01  #food")
    #expect(ui.line(containing: "Write") == "  [ ] 2  Write report  !high  #work")
    #expect(ui.line(containing: "milk") == "  [ ] 3  Buy milk  due 2026-03-20  #food #home")
    let narrow = try await TerminalUIHarness(storage: detailedStorage(), width: 30, clock: march10)
    let line = try #require(narrow.line(containing: "Buy"))
    #expect(line.displayWidth <= 30)
    #expect(line.hasPrefix("  [ ] 3  Buy milk"))
    #expect(line.contains("due"), "the details keep half the row")
    #expect(line.hasSuffix("…"))
  }

  @Test("An overdue date is drawn in the alert style, also when cut; others are plain")
  func overdueStyle() async throws {
    let ui = try await TerminalUIHarness(storage: detailedStorage(), width: 80, clock: march10)
    let frame = ui.frame
    let row = try #require(frame.rows.firstIndex { $0.contains("Café") })
    let start = try #require(frame.rows[row].range(of: "OVERDUE"))
    let column = String(frame.rows[row][..<start.lowerBound]).displayWidth
    #expect(frame.styles[row] == [Frame.StyledRun(columns: column..<(column + 18), style: .alert)])
    #expect(frame.styles.enumerated().allSatisfy { $0.offset == row || $0.element.isEmpty })
    var renderer = FrameRenderer()
    #expect(
      renderer.output(for: frame).contains(
        ANSI.boldRed + "OVERDUE 2026-03-01" + ANSI.resetAttributes))
    let narrow = try await TerminalUIHarness(storage: detailedStorage(), width: 34, clock: march10)
    let cut = narrow.frame
    let cutRow = try #require(cut.rows.firstIndex { $0.contains("Café") })
    let runs = cut.styles[cutRow]
    #expect(runs.count == 1)
    #expect(runs.allSatisfy { $0.columns.upperBound <= 34 })
  }

  @Test("/ filters by search as it is typed; Enter keeps the filter, Esc clears it")
  func search() async throws {
    let ui = try await TerminalUIHarness(storage: detailedStorage(), width: 80, clock: march10)
    await ui.press(.character("/"))
    #expect(ui.bottomLine == "enter keep filter  esc clear filter")
    await ui.type("CAFE")
    #expect(ui.text.contains("search: CAFE"))
    #expect(ui.line(containing: "Café") != nil)
    #expect(ui.line(containing: "Write") == nil)
    await ui.press(.enter)
    #expect(ui.state.list.search == "CAFE")
    #expect(ui.state.list.editing == nil)
    await ui.press(.character("j"))
    #expect(ui.line(containing: "Write") == nil, "keys move again, the filter stays")
    await ui.press(.character("/"), .backspace, .backspace, .backspace, .backspace)
    await ui.type("nothing")
    #expect(ui.text.contains("No todo matches the filter."))
    await ui.press(.escape)
    #expect(ui.state.list.search == "")
    #expect(ui.line(containing: "Write") != nil)
  }

  @Test("t filters by one tag, in any case; s cycles the sort")
  func tagAndSort() async throws {
    let ui = try await TerminalUIHarness(storage: detailedStorage(), width: 80, clock: march10)
    await ui.press(.character("t"))
    await ui.type("FOOD")
    await ui.press(.enter)
    #expect(ui.app.store.state.list.tag == "FOOD")
    #expect(ui.line(containing: "Write") == nil)
    #expect(ui.line(containing: "Café") != nil && ui.line(containing: "milk") != nil)
    await ui.press(.character("t"), .escape)
    #expect(ui.line(containing: "Write") != nil)

    func order() -> [String] {
      ui.lines.compactMap { line in
        ["Café", "Write", "Buy"].first { line.contains($0) }
      }
    }
    #expect(order() == ["Café", "Write", "Buy"])
    await ui.press(.character("s"))
    #expect(ui.text.contains("sort: due"))
    #expect(order() == ["Café", "Buy", "Write"])
    await ui.press(.character("s"))
    #expect(order() == ["Write", "Café", "Buy"])
    await ui.press(.character("s"))
    #expect(order() == ["Buy", "Café", "Write"])
    await ui.press(.character("s"))
    #expect(order() == ["Café", "Write", "Buy"])
    #expect(!ui.text.contains("sort:"))
  }

  @Test("In the detail, p cycles the priority and saves each step")
  func priority() async throws {
    let storage = detailedStorage()
    let ui = try await TerminalUIHarness(storage: storage, width: 80, clock: march10)
    await ui.press(.enter)
    #expect(ui.text.contains("Priority  none"))
    #expect(ui.text.contains("Due       2026-03-01 OVERDUE"))
    #expect(ui.text.contains("Tags      #food"))
    for expected in [Priority.high, .medium, .low, nil] {
      await ui.press(.character("p"))
      #expect(try storage.load().todos[id: 1]?.priority == expected)
      #expect(ui.text.contains("Priority  \(expected?.rawValue ?? "none")"))
    }
  }

  @Test("D opens the date screen; the date typed is resolved, saved, and the screen closes")
  func dueDate() async throws {
    let storage = detailedStorage()
    let ui = try await TerminalUIHarness(storage: storage, width: 80, clock: march10)
    await ui.press(.down, .enter, .character("D"))
    #expect(ui.route == ["list", "detail", "due"])
    #expect(ui.text.contains("Date: "))
    await ui.type("2026-02-30")
    await ui.press(.enter)
    #expect(ui.route == ["list", "detail", "due"], "a day that does not exist keeps it open")
    #expect(ui.text.contains("'2026-02-30' is not a date"))
    #expect(ui.state.detail.refusal?.hasPrefix("'2026-02-30' is not a date") == true)
    for _ in 0..<10 { await ui.press(.backspace) }
    await ui.type("+3d")
    await ui.press(.enter)
    #expect(ui.route == ["list", "detail"])
    #expect(try storage.load().todos[id: 2]?.due == CalendarDate("2026-03-13"))
    #expect(ui.state.detail.todoID == 2, "the detail feature's slice, through its scope")
    #expect(ui.state.detail.acceptedDate == "2026-03-13")
    #expect(
      try storage.history().last?.change == .setDue(SetDue(id: 2, due: CalendarDate("2026-03-13"))))
    await ui.press(.character("D"))
    #expect(ui.text.contains("Date: 2026-03-13"))
    for _ in 0..<10 { await ui.press(.backspace) }
    await ui.type("none")
    await ui.press(.enter)
    #expect(try storage.load().todos[id: 2]?.due == nil)
    await ui.press(.character("D"), .escape)
    #expect(ui.route == ["list", "detail"])
  }

  @Test("The help screens list the new keys")
  func help() async throws {
    let ui = try await TerminalUIHarness(storage: detailedStorage(), width: 80, height: 24)
    await ui.press(.character("?"))
    for key in ["search the titles", "show one tag", "sort: added, due, priority, title"] {
      #expect(ui.text.contains(key), "\(key)")
    }
    await ui.press(.escape, .enter, .character("?"))
    for key in ["priority: none, high, medium, low", "set the due date"] {
      #expect(ui.text.contains(key), "\(key)")
    }
  }
}

@MainActor
@Suite("Terminal UI: live updates from other processes")
struct LiveUpdateTests {
  @Test("Another process's change shows on refresh, without a key and without losing typed text")
  func inMemory() async throws {
    let storage = detailedStorage()
    let ui = try await TerminalUIHarness(storage: storage, width: 80, clock: march10)
    #expect(await ui.refresh() == false || ui.line(containing: "Other") == nil)
    await ui.press(.character("a"))
    await ui.type("half typed")
    let other = TodoStore(
      initialState: AppState(), dependencies: TodoDependencies(storage: storage))
    try await other.dispatch(PerformChange(AddTodo(title: "Other process")))
    try await other.dispatch(PerformChange(TagTodo(id: 2, tags: ["remote"])))
    #expect(await ui.refresh())
    #expect(ui.line(containing: "Other process") != nil)
    #expect(ui.line(containing: "Write")?.contains("#remote") == true)
    #expect(ui.text.contains("Title: half typed"))
    #expect(await ui.refresh() == false, "nothing new, nothing to draw")
    await ui.press(.enter)
    #expect(try storage.load().todos.map(\.title).last == "half typed")
  }

  @Test("On a journaled store, another process's change arrives through the module's polling")
  func journaledStore() async throws {
    let directory = try StoreDirectory()
    let other = JournaledTodoStorage(directory: directory.path)
    try await other.apply([.addTodo(AddTodo(id: 1, title: "first"))])
    let clock = TestClock()
    let storage = JournaledTodoStorage(
      directory: directory.path, pollInterval: .milliseconds(250), pollClock: clock)
    let ui = try await TerminalUIHarness(storage: storage, width: 80)
    _ = await ui.refresh()
    #expect(await ui.refresh() == false, "nothing new")
    try await other.apply([.addTodo(AddTodo(id: 2, title: "second"))])
    await other.close()
    #expect(await ui.refresh() == false, "not heard before the next poll")
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(250))
    await storage.waitUntilHeard(1)
    #expect(await ui.refresh())
    #expect(ui.line(containing: "second") != nil)
    #expect(await ui.refresh() == false)
    await storage.close()
  }
}
