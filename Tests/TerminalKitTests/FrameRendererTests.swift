import TerminalKit
import Testing

@Suite("Frames and the diff renderer")
struct FrameRendererTests {
  private func frame(_ lines: [String], width: Int = 10) -> Frame {
    var frame = Frame(width: width, height: lines.count)
    for (row, line) in lines.enumerated() { frame.draw(line, row: row) }
    return frame
  }

  @Test("Drawing fits text to the frame and overlays at a column")
  func drawing() {
    var frame = frame(["hello", "漢字漢字漢字"])
    frame.draw("XY", row: 0, column: 3)
    #expect(frame.text == "helXY\n漢字漢字…")
    frame.draw("|", row: 1, column: 1)
    #expect(frame.rows[1] == " |字漢字… ")
    #expect(frame.rows.allSatisfy { $0.displayWidth == 10 })
  }

  @Test("The first frame is drawn in full")
  func firstFrame() {
    var renderer = FrameRenderer()
    let output = renderer.output(for: frame(["one", "two", "three"]))
    #expect(output.contains(ANSI.clearScreen))
    for (row, text) in ["one", "two", "three"].enumerated() {
      #expect(output.contains(ANSI.moveTo(row: row, column: 0) + text))
    }
  }

  @Test("A redraw with one changed row writes only that row, from its first changed cell")
  func oneChangedRow() {
    var renderer = FrameRenderer()
    _ = renderer.output(for: frame(["[ ] milk", "[ ] eggs", "[ ] tea"]))
    let output = renderer.output(for: frame(["[ ] milk", "[x] eggs", "[ ] tea"]))
    #expect(output == ANSI.moveTo(row: 1, column: 1) + "x] eggs  ")
  }

  @Test("An unchanged frame writes nothing")
  func unchanged() {
    var renderer = FrameRenderer()
    _ = renderer.output(for: frame(["a", "b"]))
    #expect(renderer.output(for: frame(["a", "b"])) == "")
  }

  @Test("A change after wide characters starts at the right column")
  func wideDiff() {
    var renderer = FrameRenderer()
    _ = renderer.output(for: frame(["漢字abc"]))
    #expect(renderer.output(for: frame(["漢字abd"])) == ANSI.moveTo(row: 0, column: 6) + "d   ")
  }

  @Test("A size change or an invalidation redraws everything")
  func fullRedraw() {
    var renderer = FrameRenderer()
    _ = renderer.output(for: frame(["a", "b"]))
    #expect(renderer.output(for: frame(["a", "b", "c"])).contains(ANSI.clearScreen))
    renderer.invalidate()
    #expect(renderer.output(for: frame(["a", "b", "c"])).contains(ANSI.clearScreen))
  }

  @Test("The cursor is shown where the frame puts it and hidden otherwise")
  func cursor() {
    var renderer = FrameRenderer()
    var withCursor = frame(["Title: ab"])
    withCursor.cursor = Frame.Position(row: 0, column: 9)
    let shown = renderer.output(for: withCursor)
    #expect(shown.hasSuffix(ANSI.moveTo(row: 0, column: 9) + ANSI.showCursor))
    #expect(renderer.output(for: frame(["Title: ab"])) == ANSI.hideCursor)
  }

  @Test("A styled run is wrapped in its attributes and reset, around whole characters")
  func styledRun() {
    var styled = frame(["ab漢字cd"])
    styled.style(.alert, row: 0, columns: 2..<6)
    #expect(styled.text == "ab漢字cd", "the text holds no style")
    var renderer = FrameRenderer()
    let output = renderer.output(for: styled)
    let row = "ab" + ANSI.boldRed + "漢字" + ANSI.resetAttributes + "cd  "
    #expect(output.contains(ANSI.moveTo(row: 0, column: 0) + row))
    // A character takes the style of the column it starts at: a wide one is never split.
    var split = frame(["ab漢字cd"])
    split.style(.alert, row: 0, columns: 3..<5)
    var splitRenderer = FrameRenderer()
    #expect(
      splitRenderer.output(for: split).contains(
        "ab漢" + ANSI.boldRed + "字" + ANSI.resetAttributes + "cd  "))
  }

  @Test("Text drawn over a styled run takes its style away; a style change rewrites the row")
  func styleIsCoveredAndDiffed() {
    var styled = frame(["0123456789"])
    styled.style(.alert, row: 0, columns: 2..<8)
    var covered = styled
    covered.draw("XY", row: 0, column: 4)
    #expect(covered.styles[0].map(\.columns) == [2..<4, 6..<8])
    var renderer = FrameRenderer()
    _ = renderer.output(for: frame(["0123456789"]))
    let output = renderer.output(for: styled)
    #expect(
      output
        == ANSI.moveTo(row: 0, column: 0) + "01" + ANSI.boldRed + "234567"
        + ANSI.resetAttributes + "89")
    #expect(renderer.output(for: styled) == "", "nothing changed")
    #expect(renderer.output(for: frame(["0123456789"])).hasSuffix("0123456789"))
  }

  @Test("Styles outside the frame or empty are ignored")
  func styleBounds() {
    var styled = frame(["abc"], width: 4)
    styled.style(.alert, row: 5, columns: 0..<2)
    styled.style(.alert, row: 0, columns: -3..<1)
    styled.style(.alert, row: 0, columns: 9..<12)
    #expect(styled.styles == [[Frame.StyledRun(columns: 0..<1, style: .alert)]])
  }
}
