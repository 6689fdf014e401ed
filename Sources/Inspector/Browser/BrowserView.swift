import ActionLog
import TerminalKit

/// Draws the terminal interface: a frame is a function of a ``BrowserState``, the log and the
/// window's size, and nothing else.
///
/// Layout, top to bottom: the log's name and the screens open, as a breadcrumb; the screen in
/// front; a status line (a message, the damage, the filter, the mark, or the `/` prompt); the
/// keys of the screen in front. The help box is drawn over all of it.
package enum BrowserView {
  /// One line of a list on a screen over the timeline, and what it stands for.
  package struct Line: Equatable, Sendable {
    /// What the line says.
    package var text: String
    /// The path of the state it shows, for `h` (where did it change?).
    package var path: [PathStep]?
    /// The entry it stands for, as an index among the log's entries, for Enter.
    package var entry: Int?
    /// Whether it is a container of the state tree, which Enter folds.
    package var isContainer = false
  }

  // MARK: - The lines of each screen

  /// The lines of the section an entry's screen shows.
  ///
  /// - Complexity: O(size of the section shown).
  package static func lines(of detail: BrowserState.Detail, session: SessionIndex) -> [Line] {
    guard let entry = session.entry(detail.entry) else { return [] }
    switch detail.section {
    case .payload:
      guard let payload = entry.payload else {
        let reason = entry.unrecordedReason.map { ": " + TextOutput.safe($0) } ?? ""
        return [Line(text: "not recorded" + reason)]
      }
      return payload.indentedText.split(separator: "\n", omittingEmptySubsequences: false)
        .map { Line(text: String($0)) }
    case .diff:
      guard let diff = entry.diff else {
        return [Line(text: "recorded without its diff (the log is not in diff mode)")]
      }
      if diff.isEmpty { return [Line(text: "no change")] }
      return diff.map { Line(text: TextOutput.change($0), path: $0.path) }
    case .state:
      guard let state = detail.state else {
        return [Line(text: "the log does not hold the state after this entry")]
      }
      return StateTree.rows(of: state, expanded: detail.expanded).map { row in
        Line(text: row.text, path: row.path, isContainer: row.isContainer)
      }
    case .effects:
      let effects = session.effects(afterEntry: detail.entry)
      if effects.isEmpty { return [Line(text: "no side effect recorded after this entry")] }
      return effects.map { Line(text: EffectText.description($0)) }
    }
  }

  /// The lines of a comparison: one per change.
  ///
  /// - Complexity: O(changes).
  package static func lines(of comparison: BrowserState.Comparison) -> [Line] {
    guard let changes = comparison.changes else {
      return [Line(text: "the log does not hold the state after both entries")]
    }
    if changes.isEmpty { return [Line(text: "no difference")] }
    return changes.map { Line(text: TextOutput.change($0), path: $0.path) }
  }

  /// The lines of a path's history: one per entry that changed it.
  ///
  /// - Complexity: O(changes).
  package static func lines(of history: BrowserState.History, session: SessionIndex) -> [Line] {
    var lines = history.changes.map { change in
      let label = session.entry(change.entry).map { "\($0.sequence)  " + TextOutput.label($0) }
      return Line(
        text: (label ?? "") + ": " + TextOutput.value(change.old) + " → "
          + TextOutput.value(change.new),
        path: history.path, entry: change.entry)
    }
    if lines.isEmpty { lines.append(Line(text: "no entry changed it")) }
    if history.entriesWithoutState > 0 {
      lines.append(
        Line(
          text: "\(history.entriesWithoutState) entries could not be checked: recorded "
            + "without diffs"))
    }
    return lines
  }

  // MARK: - Keys

  /// The keys shown on the bottom line of the screen in front.
  package static func keyHints(for state: BrowserState) -> [KeyHint] {
    if state.help != nil { return [KeyHint("j/k", "scroll"), KeyHint("any key", "close")] }
    if state.filterField != nil {
      return [KeyHint("enter", "keep filter"), KeyHint("esc", "clear filter")]
    }
    switch state.screens.last {
    case nil:
      return [
        KeyHint("j/k", "move"), KeyHint("enter", "open"), KeyHint("/", "filter"),
        KeyHint("m", "mark"), KeyHint("c", "compare"), KeyHint("?", "help"),
        KeyHint("q", "quit"),
      ]
    case .detail(let detail)?:
      var hints = [KeyHint("tab", "next section"), KeyHint("[ ]", "prev/next")]
      if detail.section == .state { hints.append(KeyHint("enter", "fold")) }
      if detail.section == .diff || detail.section == .state {
        hints.append(KeyHint("h", "history"))
      }
      return hints + [KeyHint("?", "help"), KeyHint("esc", "back")]
    case .comparison?:
      return [KeyHint("j/k", "move"), KeyHint("h", "history"), KeyHint("?", "help"), back]
    case .history?:
      return [KeyHint("j/k", "move"), KeyHint("enter", "open"), KeyHint("?", "help"), back]
    }
  }

  private static let back = KeyHint("esc", "back")

  /// Every key of the screen in front, for the help box.
  package static func helpEntries(for state: BrowserState) -> [KeyHint] {
    let moving = [
      KeyHint("j, ↓", "move down"), KeyHint("k, ↑", "move up"),
      KeyHint("g, home", "go to the first line"), KeyHint("G, end", "go to the last line"),
    ]
    let common = [
      KeyHint("?", "show this help (j/k scroll it, any other key closes it)"),
      KeyHint("ctrl-c", "quit at once"),
    ]
    let backKeys = KeyHint("esc, q, backspace", "back to the screen before")
    switch state.screens.last {
    case nil:
      return moving + [
        KeyHint("enter, l, →", "open the entry: payload, diff, state, effects"),
        KeyHint("/", "filter: type:W scope:W cause:W or any text (enter keeps, esc clears)"),
        KeyHint("esc", "clear the filter"),
        KeyHint("m", "mark the entry to compare (again: unmark)"),
        KeyHint("c", "compare the state after the marked entry with this one"),
        KeyHint("q", "quit"),
      ] + common
    case .detail?:
      return moving + [
        KeyHint("tab", "next section: payload, diff, state, effects"),
        KeyHint("p, d, s", "the payload, the diff, the state after the entry"),
        KeyHint("e", "the side effects recorded after the entry, before the next one"),
        KeyHint("[, ]", "the previous or next entry of the timeline"),
        KeyHint("enter, space", "fold or unfold the value (state)"),
        KeyHint("→, l", "unfold the value (state)"),
        KeyHint("←", "fold the value, or go to its container (state)"),
        KeyHint("h", "history: the entries that changed the value (diff, state)"),
        KeyHint("m", "mark this entry to compare (again: unmark)"),
        KeyHint("c", "compare the state after the marked entry with this one"),
        backKeys,
      ] + common
    case .comparison?:
      return moving + [
        KeyHint("h", "history: the entries that changed the value"), backKeys,
      ] + common
    case .history?:
      return moving + [KeyHint("enter", "open the entry that made the change"), backKeys]
        + common
    }
  }

  // MARK: - The frame

  /// The rows of the list on the screen in front, in a window of `height` rows.
  package static func listHeight(of state: BrowserState, height: Int) -> Int {
    let body = max(height - 3, 0)
    return max(body - headerHeight(of: state, body: body), 0)
  }

  /// The rows above the list: the timeline's column names; an entry's title and its sections;
  /// a comparison's or a history's title; none in a body too short for them.
  private static func headerHeight(of state: BrowserState, body: Int) -> Int {
    switch state.screens.last {
    case nil: body >= 3 ? 1 : 0
    case .detail?: body >= 4 ? 2 : (body >= 2 ? 1 : 0)
    case .comparison?, .history?: body >= 3 ? 1 : 0
    }
  }

  /// Scrolls `state` to show its selection in a window of `width` × `height`, and draws it:
  /// what the application and the tests put on screen.
  ///
  /// Drawing reads the entries on screen from the log; when one of them turns out damaged,
  /// the log ends before it, and the frame is drawn again without it.
  ///
  /// - Complexity: O(cells of the frame), plus the entries on screen read from the log.
  package static func draw(
    _ state: inout BrowserState, session: SessionIndex, width: Int, height: Int
  ) -> Frame {
    var frame: Frame
    var damage: LogDamage?
    repeat {
      damage = session.damage
      state.sessionGrew(session)
      state.scroll(toShowSelectionIn: height, session: session)
      frame = Self.frame(of: state, session: session, width: width, height: height)
    } while session.damage != damage
    return frame
  }

  /// The screen for `state` in a window of `width` × `height` cells.
  ///
  /// - Complexity: O(width × height), plus the lines of the screen in front.
  package static func frame(
    of state: BrowserState, session: SessionIndex, width: Int, height: Int
  ) -> Frame {
    var frame = Frame(width: width, height: height)
    frame.draw(breadcrumb(state, session), row: 0)
    let bodyHeight = max(frame.height - 3, 0)
    let header = headerHeight(of: state, body: bodyHeight)
    let list = Frame.Area(
      row: 1 + header, column: 0, width: frame.width, height: max(bodyHeight - header, 0))
    switch state.screens.last {
    case nil:
      drawTimeline(state, session, in: &frame, list: list, header: header)
    case .detail(let detail)?:
      if header == 2 { frame.draw(title(of: detail, session), row: 1) }
      if header > 0 { frame.draw(sectionLine(detail.section), row: header) }
      draw(lines(of: detail, session: session), detail.viewport, in: &frame, list)
    case .comparison(let comparison)?:
      if header > 0 {
        let count = comparison.changes.map { $0.count == 1 ? "1 change" : "\($0.count) changes" }
        let title =
          "state after \(sequence(comparison.from, session)) → after "
          + "\(sequence(comparison.to, session))" + (count.map { ": " + $0 } ?? "")
        frame.draw(title, row: 1)
      }
      draw(lines(of: comparison), comparison.viewport, in: &frame, list)
    case .history(let history)?:
      if header > 0 {
        let count = history.changes.count == 1 ? "1 change" : "\(history.changes.count) changes"
        frame.draw(
          "where " + TextOutput.safe(JSONPath.text(history.path)) + " changed: " + count,
          row: 1)
      }
      draw(lines(of: history, session: session), history.viewport, in: &frame, list)
    }
    drawBottom(state, session, in: &frame)
    if let offset = state.help {
      let lines = KeyHint.helpLines(helpEntries(for: state))
      let shown = lines.dropFirst(min(offset, max(lines.count - 1, 0)))
      frame.drawBox(title: "Keys: " + screenName(state), lines: Array(shown))
      frame.cursor = nil
    }
    return frame
  }

  /// The top line: the log, its entries, and the screens open.
  private static func breadcrumb(_ state: BrowserState, _ session: SessionIndex) -> String {
    let count = session.entryCount == 1 ? "1 entry" : "\(session.entryCount) entries"
    var parts = [state.title + ": " + count + (state.following ? ", following" : "")]
    for screen in state.screens {
      switch screen {
      case .detail(let detail): parts.append("entry \(sequence(detail.entry, session))")
      case .comparison(let comparison):
        parts.append(
          "compare \(sequence(comparison.from, session)) → \(sequence(comparison.to, session))")
      case .history(let history):
        parts.append("history " + TextOutput.safe(JSONPath.text(history.path)))
      }
    }
    return parts.joined(separator: " › ")
  }

  private static func screenName(_ state: BrowserState) -> String {
    switch state.screens.last {
    case nil: "timeline"
    case .detail?: "entry"
    case .comparison?: "comparison"
    case .history?: "history"
    }
  }

  /// The `seq` of the entry at `index`, as text.
  private static func sequence(_ index: Int, _ session: SessionIndex) -> String {
    session.entry(index).map { String($0.sequence) } ?? "?"
  }

  /// `seq 3 · AddItem · scope account · cause user: tap · effect 2 · 2026-…Z · line 5`, the
  /// effect being the side effect that dispatched it, when the log says.
  private static func title(of detail: BrowserState.Detail, _ session: SessionIndex) -> String {
    guard let entry = session.entry(detail.entry) else { return "" }
    var parts = ["seq \(entry.sequence)", TextOutput.safe(entry.type)]
    if !entry.scope.isEmpty { parts.append("scope " + TextOutput.safe(entry.scope)) }
    if let cause = entry.cause { parts.append("cause " + TextOutput.safe(cause)) }
    if let effect = entry.effect { parts.append("effect \(effect)") }
    if let time = entry.time, abs(time) < 1e15 { parts.append(TimeText.date(time)) }
    parts.append("line \(entry.line)")
    return parts.joined(separator: " · ")
  }

  /// `[payload]  diff  state`, the section shown in brackets.
  private static func sectionLine(_ section: BrowserState.Section) -> String {
    BrowserState.Section.allCases.map { $0 == section ? "[\($0.rawValue)]" : " \($0.rawValue) " }
      .joined(separator: " ")
  }

  /// Draws `lines` in `area`, the selected one marked with `>`.
  private static func draw(
    _ lines: [Line], _ viewport: ListViewport<Int>, in frame: inout Frame, _ area: Frame.Area
  ) {
    var viewport = viewport
    let range = viewport.visibleRange(in: Array(lines.indices), height: area.height)
    for (row, index) in range.enumerated() {
      let marker = index == viewport.selection ? "> " : "  "
      frame.draw(marker + lines[index].text, row: area.row + row, width: area.width)
    }
  }

  // MARK: - The timeline

  private static func drawTimeline(
    _ state: BrowserState, _ session: SessionIndex, in frame: inout Frame, list: Frame.Area,
    header: Int
  ) {
    guard !state.visible.isEmpty else {
      let text = session.entryCount == 0 ? "No entries yet." : "No entry matches the filter."
      if list.height > 0 { frame.draw("  " + text, row: list.row) }
      return
    }
    var viewport = state.timeline
    let range = viewport.visibleRange(in: state.visible, height: list.height)
    let shown = range.compactMap { session.entry(state.visible[$0]) }
    let columns = TimelineColumns(shown, width: list.width)
    if header > 0 { frame.draw(columns.header, row: 1) }
    for (row, index) in range.enumerated() {
      let entryIndex = state.visible[index]
      guard let entry = session.entry(entryIndex) else { continue }
      let marker =
        (entryIndex == viewport.selection ? ">" : " ") + (entryIndex == state.mark ? "*" : " ")
      frame.draw(marker + columns.line(entry), row: list.row + row, width: list.width)
    }
  }

  /// The status line and the key line.
  private static func drawBottom(
    _ state: BrowserState, _ session: SessionIndex, in frame: inout Frame
  ) {
    if let field = state.filterField {
      // The prompt takes the status line, or the key line in a window of two rows or fewer.
      let row = frame.height > 2 ? frame.height - 2 : frame.height - 1
      let visible = field.visible(inWidth: max(frame.width - 1, 0))
      frame.draw("/" + visible.text, row: row, width: frame.width)
      frame.cursor = Frame.Position(
        row: row, column: min(1 + visible.cursorColumn, frame.width - 1))
      if frame.height > 2 {
        frame.draw(KeyHint.line(keyHints(for: state)), row: frame.height - 1)
      }
      return
    }
    if frame.height > 2 {
      frame.draw(statusLine(state, session), row: frame.height - 2)
    }
    if frame.height > 1 {
      frame.draw(KeyHint.line(keyHints(for: state)), row: frame.height - 1)
    }
  }

  /// A message, or the damage, the filter and the mark.
  private static func statusLine(_ state: BrowserState, _ session: SessionIndex) -> String {
    if let status = state.status { return status }
    var parts: [String] = []
    if let damage = session.damage { parts.append("damaged at \(damage)") }
    if let progress = session.progress { parts.append("reading the log: \(progress.percent) %") }
    if !state.filter.isEmpty {
      parts.append(
        "filter: \(state.filter.text) (\(state.visible.count) of \(session.entryCount))")
    }
    if let mark = state.mark { parts.append("marked: \(sequence(mark, session))") }
    return parts.joined(separator: "  ")
  }
}
