import Navigation
import StateStoreTesting
import Synchronization
import TerminalKit
import Testing

@testable import TodoCore

/// The terminal UI's boxes are sub-flows: each returns its result to the screen that showed it,
/// which does the change; the box itself changes nothing and is released once it closes.
@MainActor
@Suite("Terminal UI: confirm, add, edit and the date screen return their results")
struct SubFlowResultTests {
  private let titles = ["Buy milk", "Call mom", "Water plants"]

  @Test("The list's delete awaits the confirm box: y deletes, n and Esc keep the todo")
  func deleteAwaitsConfirm() async throws {
    let storage = storage(titles: titles)
    let ui = try await TerminalUIHarness(storage: storage)
    for key in [Key.character("n"), .escape] {
      await ui.press(.down, .character("d"))
      #expect(ui.route == ["list", "confirm"])
      await ui.press(key)
      #expect(ui.route == ["list"])
      #expect(try storage.history().count == 3, "\(key) keeps the todo")
      #expect(ui.line(containing: "Call mom") != nil)
      await ui.press(.up)
    }
    await ui.press(.down, .character("d"))
    #expect(try storage.load().todos.count == 3, "nothing is deleted while the box waits")
    await ui.press(.character("y"))
    #expect(try storage.load().todos.map(\.id) == [1, 3])
    #expect(try storage.history().last?.change == .removeTodo(RemoveTodo(id: 2)))
  }

  @Test("A confirm box hidden by an outside Navigate gives no answer, and nothing is deleted")
  func confirmHiddenFromOutside() async throws {
    let storage = storage(titles: titles)
    let ui = try await TerminalUIHarness(storage: storage)
    await ui.press(.character("d"))
    weak let confirm = ui.app.navigator.topmostRoutable as? ConfirmScreen
    #expect(confirm != nil)
    try await ui.app.store.dispatch(Navigate(to: ["list"]))
    await ui.app.stores.callers.settle()
    #expect(ui.route == ["list"])
    #expect(confirm == nil)
    #expect(try storage.load().todos.count == 3)
  }

  @Test("The confirm box is released once it is answered or closed")
  func confirmIsReleased() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles))
    for key in [Key.character("y"), .character("n"), .escape] {
      await ui.press(.character("d"))
      weak let confirm = ui.app.navigator.topmostRoutable as? ConfirmScreen
      #expect(confirm?.isVisible == true)
      await ui.press(key)
      #expect(confirm == nil, "after \(key)")
    }
  }

  @Test("add returns the title typed and the list adds it; Esc returns none and adds nothing")
  func addReturnsTheTitle() async throws {
    let storage = storage(titles: titles)
    let ui = try await TerminalUIHarness(storage: storage)
    await ui.press(.character("a"))
    weak let box = ui.app.navigator.topmostRoutable as? TitleEntryScreen
    await ui.type("Read a book")
    await ui.press(.escape)
    #expect(box == nil)
    #expect(ui.route == ["list"])
    #expect(try storage.history().count == 3)
    #expect(ui.state.todos.count == 3)
    await ui.press(.character("a"))
    weak let second = ui.app.navigator.topmostRoutable as? TitleEntryScreen
    await ui.type("Read a book")
    await ui.press(.enter)
    #expect(second == nil)
    #expect(try storage.history().last?.change == .addTodo(AddTodo(id: 4, title: "Read a book")))
  }

  @Test("edit returns the new title and the detail saves it; Esc or the same title save nothing")
  func editReturnsTheTitle() async throws {
    let storage = storage(titles: titles)
    let ui = try await TerminalUIHarness(storage: storage)
    await ui.press(.enter, .character("e"))
    weak let box = ui.app.navigator.topmostRoutable as? TitleEntryScreen
    await ui.type(" and bread")
    await ui.press(.escape)
    #expect(box == nil)
    #expect(ui.route == ["list", "detail"])
    await ui.press(.character("e"), .enter)
    #expect(ui.route == ["list", "detail"])
    #expect(try storage.history().count == 3, "Esc and an unchanged title save nothing")
    await ui.press(.character("e"))
    await ui.type(" and bread")
    await ui.press(.enter)
    #expect(
      try storage.history().last?.change
        == .editTitle(EditTitle(id: 1, title: "Buy milk and bread")))
  }

  @Test("The date screen's result reaches the detail, which saves it; Esc changes nothing")
  func dueDateResultReachesTheDetail() async throws {
    let storage = detailedStorage()
    let ui = try await TerminalUIHarness(storage: storage, width: 80, clock: march10)
    await ui.press(.down, .enter, .character("D"))
    weak let dateScreen = ui.app.navigator.topmostRoutable as? DueDateScreen
    #expect(dateScreen != nil)
    await ui.type("tomorrow")
    await ui.press(.escape)
    #expect(dateScreen == nil)
    #expect(ui.route == ["list", "detail"])
    #expect(try storage.history().count == 3)
    #expect(ui.state.todos[id: 2]?.due == nil)
    // Whoever finishes the sub-flow, the detail that awaits it is the one that saves.
    await ui.press(.character("D"))
    try await ui.app.store.dispatch(
      Finish(.dueDate, with: DueDateChoice(due: CalendarDate("2026-04-01"))))
    await ui.app.stores.callers.settle()
    #expect(ui.route == ["list", "detail"])
    #expect(
      try storage.history().last?.change
        == .setDue(SetDue(id: 2, due: CalendarDate("2026-04-01"))))
    await ui.press(.character("D"))
    for _ in 0..<10 { await ui.press(.backspace) }
    await ui.type("+1w")
    await ui.press(.enter)
    #expect(try storage.load().todos[id: 2]?.due == CalendarDate("2026-03-17"))
  }

  @Test("A box that cannot be shown gives its caller an error on the status line, never a hang")
  func callerOfAScreenThatCannotBeShown() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: titles))
    var answered: Bool?? = .none
    await ui.app.stores.call(ShowForResult(.confirmDelete, context: 99)) { answered = $0 }
    #expect(answered == nil, "the caller stops at the error")
    #expect(ui.route == ["list"])
    #expect(ui.state.statusLine.message?.contains("no todo with id 99") == true)
  }

  @Test("A witness answers the confirm box without building it: true deletes, false keeps")
  func witnessAnswersConfirm() async throws {
    for answer in [false, true] {
      let storage = storage(titles: titles)
      let witness = NavigationWitness(root: "list")
      witness.answer(.confirmDelete) { context in
        #expect(context as? Int == 1)
        return answer
      }
      let app = TodoTerminalApp(
        storage: storage, state: try storage.load(), navigator: witness.navigator)
      app.listScreen.appear()
      await app.listScreen.handle(.character("d"))
      await app.stores.callers.settle()
      #expect(witness.actions == [.show("confirm")])
      #expect(witness.navigator.currentRoute == ["list"], "no screen was built or shown")
      #expect(try storage.load().todos.count == (answer ? 2 : 3))
      app.listScreen.disappear()
    }
  }
}

/// A storage that refuses every change while `isRefusing` is set, as a full disk would.
private final class RefusingStorage: TodoStorage {
  struct DiskFull: Error, CustomStringConvertible {
    var description: String { "the disk is full" }
  }

  let base: InMemoryTodoStorage
  private let refusing = Mutex(false)

  init(_ base: InMemoryTodoStorage) {
    self.base = base
  }

  var isRefusing: Bool {
    get { refusing.withLock { $0 } }
    set { refusing.withLock { $0 = newValue } }
  }

  func load() throws -> AppState { try base.load() }
  func history() throws -> [JournalEntry] { try base.history() }

  func store(_ decide: @escaping @Sendable (AppState) throws -> AnyTodoChange?) async throws
    -> StoredChange?
  {
    if isRefusing { throw DiskFull() }
    return try await base.store(decide)
  }

  func undo() async throws -> UndoResult? {
    if isRefusing { throw DiskFull() }
    return try await base.undo()
  }
}

@MainActor
@Suite("Terminal UI: a title whose save fails comes back in its box")
struct FailedSaveTests {
  @Test("add: the box shows again with the title typed and the reason; Enter then saves it")
  func addAgain() async throws {
    let storage = RefusingStorage(storage(titles: ["Buy milk"]))
    let ui = try await TerminalUIHarness(storage: storage, width: 80)
    await ui.press(.character("a"))
    await ui.type("Read a book")
    storage.isRefusing = true
    await ui.press(.enter)
    #expect(ui.route == ["list", "add"])
    #expect(ui.text.contains("Title: Read a book"))
    #expect(ui.text.contains("the disk is full"))
    storage.isRefusing = false
    await ui.press(.enter)
    #expect(ui.route == ["list"])
    #expect(try storage.load().todos.map(\.title) == ["Buy milk", "Read a book"])
  }

  @Test("edit: the box shows again with the new title; Esc then keeps the old one")
  func editAgain() async throws {
    let storage = RefusingStorage(storage(titles: ["Buy milk"]))
    let ui = try await TerminalUIHarness(storage: storage, width: 80)
    await ui.press(.enter, .character("e"))
    await ui.type(" and bread")
    storage.isRefusing = true
    await ui.press(.enter)
    #expect(ui.route == ["list", "detail", "edit"])
    #expect(ui.text.contains("Title: Buy milk and bread"))
    #expect(ui.text.contains("the disk is full"))
    await ui.press(.escape)
    #expect(ui.route == ["list", "detail"])
    #expect(try storage.load().todos[id: 1]?.title == "Buy milk")
  }
}
