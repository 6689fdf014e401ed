import TerminalKit
import Testing

@testable import TodoCore

/// Every screen at sizes down to nothing, and titles that try to drive the terminal.
@MainActor
@Suite("Terminal UI: tiny windows and hostile titles")
struct SmallWindowTests {
  private static let sizes = [(0, 0), (1, 1), (2, 2), (3, 3), (12, 4), (4, 12), (20, 5), (80, 24)]

  private static let titles = [
    "Buy milk", "読む：吾輩は猫である、名前はまだ無い。どこで生れたかとんと見当がつかぬ",
    "👨‍👩‍👧 family 🇺🇸 e\u{301}", "tab\there\u{1B}[2J", String(repeating: "long ", count: 40),
  ]

  /// Checks the frame at every size.
  ///
  /// The frame must have the right number of rows, each exactly as wide as the frame, and the
  /// cursor (if shown) inside it. Reaching the end at all means nothing trapped.
  private func checkEverySize(_ ui: TerminalUIHarness, _ screen: String) {
    for (width, height) in Self.sizes {
      ui.width = width
      ui.height = height
      let frame = ui.frame
      let context = "\(screen) at \(width)x\(height)"
      #expect(frame.rows.count == max(height, 1), "\(context)")
      #expect(frame.rows.allSatisfy { $0.displayWidth == max(width, 1) }, "\(context)")
      if let cursor = frame.cursor {
        #expect((0..<frame.width).contains(cursor.column), "\(context)")
        #expect((0..<frame.height).contains(cursor.row), "\(context)")
      }
      var renderer = FrameRenderer()
      _ = renderer.output(for: frame)
    }
    ui.width = 80
    ui.height = 24
  }

  @Test("Every screen draws at 0x0, 1x1, 2x2, 12x4 and other small sizes without trapping")
  func everyScreenEverySize() async throws {
    let empty = try await TerminalUIHarness(storage: InMemoryTodoStorage())
    checkEverySize(empty, "empty list")

    let ui = try await TerminalUIHarness(storage: storage(titles: Self.titles, doneCount: 1))
    checkEverySize(ui, "list")
    await ui.press(.down, .down, .enter)
    #expect(ui.route == ["list", "detail"])
    checkEverySize(ui, "detail")
    await ui.press(.character("?"))
    #expect(ui.route == ["list", "detail", "help"])
    checkEverySize(ui, "help over detail")
    await ui.press(.escape, .character("e"))
    #expect(ui.route == ["list", "detail", "edit"])
    checkEverySize(ui, "edit")
    await ui.press(.home)
    checkEverySize(ui, "edit at home")
    await ui.press(.escape, .escape, .character("?"))
    #expect(ui.route == ["list", "help"])
    checkEverySize(ui, "help over list")
    await ui.press(.escape, .character("d"))
    #expect(ui.route == ["list", "confirm"])
    checkEverySize(ui, "confirm")
    await ui.press(.character("n"), .character("a"))
    await ui.type("漢字 café 👍🏽")
    #expect(ui.route == ["list", "add"])
    checkEverySize(ui, "add")
    await ui.press(.enter)
    #expect(ui.route == ["list"])
    await ui.press(.character("a"))
    checkEverySize(ui, "empty add")
  }

  @Test("At 12x4 the add screen still shows the title being typed, with the cursor after it")
  func addAtTwelveByFour() async throws {
    let ui = try await TerminalUIHarness(storage: InMemoryTodoStorage(), width: 12, height: 4)
    await ui.press(.character("a"))
    await ui.type("café")
    #expect(ui.lines[1] == "café")
    #expect(ui.frame.cursor == Frame.Position(row: 1, column: 4))
    await ui.type("漢")
    #expect(ui.frame.cursor == Frame.Position(row: 1, column: 6), "a wide character is 2 columns")
    await ui.press(.enter)
    #expect(ui.route == ["list"])
    #expect(ui.lines[1].hasPrefix("> [ ] 1  ca"), "the new todo, on the one body row")
  }

  @Test("At 12x4 the detail shows the todo's title on the one body row")
  func detailAtTwelveByFour() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: ["Milk"]), width: 12, height: 4)
    await ui.press(.enter)
    #expect(ui.route == ["list", "detail"])
    #expect(ui.lines[1] == "[ ] 1  Milk")
    let long = try await TerminalUIHarness(
      storage: storage(titles: ["Buy milk and eggs"]), width: 12, height: 4)
    await long.press(.enter)
    #expect(long.lines[1] == "[ ] 1  Buy…", "cut with an ellipsis when more would follow")
  }

  @Test("At 12x4 the confirm screen still asks its question")
  func confirmAtTwelveByFour() async throws {
    let ui = try await TerminalUIHarness(storage: storage(titles: ["Milk"]), width: 12, height: 4)
    await ui.press(.character("d"))
    #expect(ui.lines[1].hasPrefix("Delete todo"))
    #expect(ui.bottomLine.hasPrefix("y delete"))
  }

  @Test("A negative id from a damaged file does not break the list's id column")
  func negativeID() async throws {
    let changes: [AnyTodoChange] = [
      .addTodo(AddTodo(id: -12, title: "minus")), .addTodo(AddTodo(id: 3, title: "three")),
    ]
    let ui = try await TerminalUIHarness(storage: InMemoryTodoStorage(changes: changes))
    #expect(ui.line(containing: "minus")?.contains("-12  minus") == true)
    #expect(ui.line(containing: "three")?.contains("  3  three") == true)
  }

  @Test("Control characters and escape sequences in titles are drawn as symbols, never sent raw")
  func hostileTitles() async throws {
    let hostile = "evil\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{7F}\r\nend"
    let ui = try await TerminalUIHarness(
      storage: storage(titles: [hostile]), width: 100, height: 20)
    let shown = "evil␛]0;pwned␇␛[2J�31m␡␍␊end"
    var renderer = FrameRenderer()
    var output = renderer.output(for: ui.frame)
    #expect(ui.text.contains(shown))
    await ui.press(.enter)
    #expect(ui.text.contains(shown))
    output += renderer.output(for: ui.frame)
    await ui.press(.character("e"))
    #expect(ui.text.contains(shown))
    // The symbols take a column each, and the field counts them so: the cursor follows "end".
    let cursor = try #require(ui.frame.cursor)
    #expect(ui.frame.rows[cursor.row].columns(0..<cursor.column).hasSuffix(shown))
    output += renderer.output(for: ui.frame)
    await ui.press(.escape, .escape, .character("d"))
    #expect(ui.text.contains("evil␛]0;"))
    output += renderer.output(for: ui.frame)
    // The only escape sequences are the renderer's own: cursor moves, one clear, cursor on/off.
    let scalars = output.unicodeScalars
    #expect(!scalars.contains("\u{07}"))
    #expect(!scalars.contains("\u{9B}"))
    #expect(!scalars.contains("\u{7F}"))
    #expect(!output.contains("\u{1B}]"))
    #expect(output.components(separatedBy: ANSI.clearScreen).count == 2)
    #expect(ui.frame.rows.allSatisfy { row in !row.unicodeScalars.contains { $0.value < 0x20 } })
  }
}
