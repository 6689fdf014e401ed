import TerminalKit
import Testing

@Suite("Text field and list viewport")
struct WidgetTests {
  private func type(_ field: inout TextField, _ key: Key) -> Bool { field.handle(key) }

  @Test("Typing, moving and deleting work by whole characters")
  func textEditing() {
    var field = TextField("ab")
    #expect(type(&field, .character("🙂")))
    #expect(field.text == "ab🙂")
    #expect(type(&field, .left))
    #expect(type(&field, .left))
    #expect(type(&field, .backspace))
    #expect(field.text == "b🙂")
    #expect(type(&field, .delete))
    #expect(field.text == "🙂")
    #expect(type(&field, .end))
    #expect(type(&field, .backspace))
    #expect(field.text == "")
    #expect(type(&field, .backspace))
    #expect(!type(&field, .enter))
    #expect(!type(&field, .escape))
  }

  @Test("A long field scrolls to keep the insertion point in view")
  func scrolling() {
    let field = TextField("漢字漢字漢字")
    let visible = field.visible(inWidth: 6)
    #expect(visible.text == "漢字")
    #expect(visible.cursorColumn == 4)
    let short = TextField("ab").visible(inWidth: 6)
    #expect(short.text == "ab" && short.cursorColumn == 2)
  }

  @Test("The selection moves within bounds and follows ids, not positions")
  func viewport() {
    var viewport = ListViewport<Int>()
    viewport.update(ids: [1, 2, 3], previousIndex: nil)
    #expect(viewport.selection == 1)
    viewport.move(by: -1, in: [1, 2, 3])
    #expect(viewport.selection == 1)
    viewport.move(by: 5, in: [1, 2, 3])
    #expect(viewport.selection == 3)
    viewport.update(ids: [0, 1, 2, 3], previousIndex: 2)
    #expect(viewport.selection == 3)
    viewport.update(ids: [0, 1, 2], previousIndex: 3)
    #expect(viewport.selection == 2)
    viewport.update(ids: [], previousIndex: 0)
    #expect(viewport.selection == nil)
  }

  @Test("The visible range scrolls to keep the selection on screen")
  func visibleRange() {
    let ids = Array(1...10)
    var viewport = ListViewport<Int>()
    viewport.update(ids: ids, previousIndex: nil)
    #expect(viewport.visibleRange(in: ids, height: 3) == 0..<3)
    viewport.move(by: 4, in: ids)
    #expect(viewport.visibleRange(in: ids, height: 3) == 2..<5)
    viewport.move(by: -3, in: ids)
    #expect(viewport.visibleRange(in: ids, height: 3) == 1..<4)
  }

  @Test("A viewport given a way to find ids asks it, and moves and scrolls as with a search")
  func viewportWithFind() {
    let ids = Array(stride(from: 0, to: 40, by: 2))
    var asked: [Int] = []
    let find: (Int) -> Int? = { id in
      asked.append(id)
      return id.isMultiple(of: 2) && id < 40 ? id / 2 : nil
    }
    var found = ListViewport<Int>()
    var searched = ListViewport<Int>()
    found.update(ids: ids, previousIndex: nil, find: find)
    searched.update(ids: ids, previousIndex: nil)
    found.move(by: 7, in: ids, find: find)
    searched.move(by: 7, in: ids)
    #expect(found.selection == 14 && found == searched)
    #expect(found.visibleRange(in: ids, height: 4, find: find) == 4..<8)
    #expect(searched.visibleRange(in: ids, height: 4) == 4..<8)
    found.select(13)
    found.update(ids: ids, previousIndex: 3, find: find)
    #expect(found.selection == 6)
    #expect(asked == [0, 14, 13])
  }
}
