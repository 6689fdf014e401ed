import ActionLog
import TerminalKit

/// Everything the terminal interface shows, apart from the log itself: which screen is in front,
/// what is selected, what is typed, what is marked.
///
/// The state changes only through ``handle(_:in:)`` (a key) and ``sessionGrew(_:)`` (entries
/// read from a log still being written); ``BrowserView`` draws it. Both are plain functions of
/// their arguments, so tests drive them without a terminal.
package struct BrowserState: Sendable {
  /// The sections of an entry's screen.
  package enum Section: String, CaseIterable, Sendable {
    /// The updater's encoding.
    case payload
    /// What the entry changed in the state.
    case diff
    /// The whole state after the entry, as a folding tree.
    case state
    /// The side effects' lines recorded after the entry, before the next one: the effects it
    /// started, and the values and ends of those running.
    case effects
  }

  /// An entry's screen.
  package struct Detail: Equatable, Sendable {
    /// The entry shown, as an index among the log's entries.
    package var entry: Int
    /// The section shown.
    package var section: Section
    /// The state after the entry, `nil` when the log does not hold it.
    package var state: JSONValue?
    /// The containers of the state tree shown open.
    package var expanded: Set<[PathStep]>
    /// The selected line of the section and the lines on screen.
    package var viewport = ListViewport<Int>()
  }

  /// The comparison of the states after two entries.
  package struct Comparison: Equatable, Sendable {
    /// The entries compared, as indices among the log's entries: the diff goes from the state
    /// after `from` to the state after `to`.
    package var from: Int
    /// See `from`.
    package var to: Int
    /// The changes, or `nil` when the log does not hold one of the states.
    package var changes: [JSONChange]?
    /// The selected line and the lines on screen.
    package var viewport = ListViewport<Int>()
  }

  /// The entries that changed one path of the state.
  package struct History: Equatable, Sendable {
    /// The path; an element step follows its element wherever it moves.
    package var path: [PathStep]
    /// Each change: the index of the entry that made it, the values before and after.
    package var changes: [Change]
    /// How many entries came where the log does not hold the state.
    package var entriesWithoutState: Int
    /// The selected line and the lines on screen.
    package var viewport = ListViewport<Int>()

    /// One change of the path.
    package struct Change: Equatable, Sendable {
      /// The entry that made it, as an index among the log's entries.
      package var entry: Int
      /// The value before, `nil` when the path did not exist.
      package var old: JSONValue?
      /// The value after, `nil` when the path no longer exists.
      package var new: JSONValue?
    }
  }

  /// A screen over the timeline.
  package enum Screen: Equatable, Sendable {
    /// An entry: payload, diff, state, effects.
    case detail(Detail)
    /// Two entries compared.
    case comparison(Comparison)
    /// Where a path changed.
    case history(History)
  }

  /// The log's name, for the top line.
  package var title: String
  /// Whether the log is read as it grows (`--follow`).
  package var following: Bool
  /// The screens over the timeline, the one in front last; empty when the timeline is in front.
  package private(set) var screens: [Screen] = []
  /// The filter in force.
  package private(set) var filter = TimelineFilter("")
  /// The filter being typed, while the `/` prompt is open.
  package private(set) var filterField: TextField?
  /// The entries the filter keeps, as indices among the log's entries, in order.
  package private(set) var visible = TimelineEntries()
  /// The selected entry of the timeline and the entries on screen.
  package private(set) var timeline = ListViewport<Int>()
  /// The entry marked for a comparison, as an index among the log's entries.
  package private(set) var mark: Int?
  /// Whether the help box is open, and how far it is scrolled.
  package private(set) var help: Int?
  /// A message for the status line, cleared by the next key.
  package private(set) var status: String?
  /// The exit status once the user quits.
  package private(set) var exitCode: Int32?
  /// How many of the log's entries the filter has been tried on.
  private var entriesFiltered = 0

  /// Creates the state for a log named `title`, showing `session`'s entries.
  package init(title: String, following: Bool, session: SessionIndex) {
    self.title = title
    self.following = following
    sessionGrew(session)
    // A log read whole opens at its start; a followed one at its newest entry, as it grows.
    if !following, let first = visible.first { timeline.select(first) }
  }

  // MARK: - The log growing

  /// Takes in the entries read since the last call: the ones the filter keeps join the timeline.
  ///
  /// With `--follow`, a selection on the last entry moves to the newest, as `tail -f` does; a
  /// log still being read whole keeps its selection, on its first entry until one is chosen.
  /// Damage found in a line read again ends the log before it: the entries from there leave
  /// the timeline, and the screens that show them close.
  ///
  /// - Complexity: O(new entries).
  package mutating func sessionGrew(_ session: SessionIndex) {
    if entriesFiltered > session.entryCount { end(before: session.entryCount) }
    let wasOnLast = timeline.selection == nil || timeline.selection == visible.last
    guard entriesFiltered < session.entryCount else { return }
    if filter.isEmpty {
      // Every entry shows, and none is read again from the file to be tried: the timeline
      // holds only their number.
      visible.append(contentsOf: entriesFiltered..<session.entryCount)
    } else {
      for index in entriesFiltered..<session.entryCount
      where session.entry(index).map(filter.matches) ?? false {
        visible.append(index)
      }
    }
    entriesFiltered = session.entryCount
    timeline.update(ids: visible, previousIndex: nil)
    if following {
      if wasOnLast, let last = visible.last { timeline.select(last) }
    } else if timeline.selection == nil, let first = visible.first {
      timeline.select(first)
    }
  }

  /// Forgets the entries from `count` on, and closes the screens that show one.
  private mutating func end(before count: Int) {
    visible.removeEntries(from: count)
    entriesFiltered = count
    if let marked = mark, marked >= count { mark = nil }
    if let first = screens.firstIndex(where: { $0.entries.contains { $0 >= count } }) {
      screens.removeSubrange(first...)
    }
    timeline.update(ids: visible, previousIndex: visible.count - 1)
  }

  /// Keeps the entries that `filter` matches, keeping the selection when it still shows.
  ///
  /// - Complexity: O(entries).
  private mutating func apply(_ filter: TimelineFilter, _ session: SessionIndex) {
    self.filter = filter
    let previous = timeline.selection
    visible =
      filter.isEmpty
      ? TimelineEntries(allUpTo: session.entryCount)
      : TimelineEntries(
        matching: (0..<session.entryCount).filter {
          session.entry($0).map(filter.matches) ?? false
        })
    entriesFiltered = session.entryCount
    let position = previous.map { selected in
      let found = visible.position(ofFirstFrom: selected)
      return found < visible.count ? found : 0
    }
    timeline.update(ids: visible, previousIndex: position)
  }

  // MARK: - Keys

  /// Reacts to one key.
  ///
  /// - Complexity: O(entries) for a key that filters or searches the log, O(size of a state)
  ///   for one that opens an entry, O(lines of the screen) otherwise.
  package mutating func handle(_ key: Key, in session: SessionIndex) {
    status = nil
    if let offset = help {
      switch key {
      case .character("j"), .down:
        help = min(offset + 1, max(BrowserView.helpEntries(for: self).count - 1, 0))
      case .character("k"), .up: help = max(offset - 1, 0)
      default: help = nil
      }
      return
    }
    if filterField != nil {
      handleFilter(key, session)
      return
    }
    if key == .character("?") {
      help = 0
      return
    }
    switch screens.last {
    case nil: handleTimeline(key, session)
    case .detail(var detail)?:
      if handleDetail(key, &detail, session) { replaceFront(with: .detail(detail)) }
    case .comparison(var comparison)?:
      let lines = BrowserView.lines(of: comparison)
      switch key {
      case .character("h"):
        if let path = Self.selected(comparison.viewport, lines)?.path { openHistory(path, session) }
      default:
        if handleCommon(key, &comparison.viewport, lines) {
          replaceFront(with: .comparison(comparison))
        }
      }
    case .history(var history)?:
      let lines = BrowserView.lines(of: history, session: session)
      switch key {
      case .enter:
        if let entry = Self.selected(history.viewport, lines)?.entry { open(entry, .diff, session) }
      default:
        if handleCommon(key, &history.viewport, lines) { replaceFront(with: .history(history)) }
      }
    }
  }

  /// The keys every screen over the timeline shares: moving and going back.
  ///
  /// - Returns: Whether `viewport` changed and the screen must be stored again.
  private mutating func handleCommon(
    _ key: Key, _ viewport: inout ListViewport<Int>, _ lines: [BrowserView.Line]
  ) -> Bool {
    let ids = Array(lines.indices)
    switch key {
    case .character("j"), .down: viewport.move(by: 1, in: ids)
    case .character("k"), .up: viewport.move(by: -1, in: ids)
    case .character("g"), .home: viewport.move(by: -lines.count, in: ids)
    case .character("G"), .end: viewport.move(by: lines.count, in: ids)
    case .escape, .character("q"), .backspace:
      screens.removeLast()
      return false
    default: return false
    }
    return true
  }

  private mutating func replaceFront(with screen: Screen) {
    guard !screens.isEmpty else { return }
    screens[screens.count - 1] = screen
  }

  private mutating func handleTimeline(_ key: Key, _ session: SessionIndex) {
    switch key {
    case .character("j"), .down: timeline.move(by: 1, in: visible)
    case .character("k"), .up: timeline.move(by: -1, in: visible)
    case .character("g"), .home: timeline.move(by: -visible.count, in: visible)
    case .character("G"), .end: timeline.move(by: visible.count, in: visible)
    case .enter, .right, .character("l"):
      if let entry = timeline.selection { open(entry, .payload, session) }
    case .character("/"): filterField = TextField(filter.text)
    case .escape:
      if !filter.isEmpty { apply(TimelineFilter(""), session) }
    case .character("m"): toggleMark(timeline.selection)
    case .character("c"): compare(with: timeline.selection, session)
    case .character("q"): exitCode = 0
    default: break
    }
  }

  /// A key while the `/` prompt is open: Enter keeps the filter, Escape clears it, the rest
  /// edit it, and the timeline follows what is typed.
  private mutating func handleFilter(_ key: Key, _ session: SessionIndex) {
    guard var field = filterField else { return }
    switch key {
    case .enter: filterField = nil
    case .escape:
      filterField = nil
      apply(TimelineFilter(""), session)
    default:
      _ = field.handle(key)
      filterField = field
      if field.text != filter.text { apply(TimelineFilter(field.text), session) }
    }
  }

  private mutating func toggleMark(_ entry: Int?) {
    guard let entry else { return }
    mark = mark == entry ? nil : entry
  }

  /// Compares the states after the marked entry and `entry`.
  private mutating func compare(with entry: Int?, _ session: SessionIndex) {
    guard let entry else { return }
    guard let mark else {
      status = "mark an entry with m first, then press c on another"
      return
    }
    let (from, to) = (min(mark, entry), max(mark, entry))
    var changes: [JSONChange]?
    if let old = session.state(afterEntry: from), let new = session.state(afterEntry: to) {
      changes = JSONChange.changes(from: old, to: new)
    }
    var comparison = Comparison(from: from, to: to, changes: changes)
    comparison.viewport.update(
      ids: Array(BrowserView.lines(of: comparison).indices), previousIndex: 0)
    screens.append(.comparison(comparison))
  }

  /// Opens the screen of the entry at `entry` on `section`, and selects it in the timeline.
  private mutating func open(_ entry: Int, _ section: Section, _ session: SessionIndex) {
    let state = session.state(afterEntry: entry)
    var detail = Detail(
      entry: entry, section: section, state: state,
      // The first two levels open: enough to see a todo's fields without a key.
      expanded: state.map { StateTree.containers(of: $0, depth: 2) } ?? [])
    detail.viewport.update(
      ids: Array(BrowserView.lines(of: detail, session: session).indices), previousIndex: 0)
    screens.append(.detail(detail))
    if visible.position(of: entry) != nil { timeline.select(entry) }
  }

  /// Lists the entries that changed `path`, with the `--changes-of` question's logic.
  private mutating func openHistory(_ path: [PathStep], _ session: SessionIndex) {
    let history = PathHistory(of: path) { visit in session.scan(visit) }
    var screen = History(
      path: path,
      changes: history.changes.compactMap { change in
        session.entryIndex(sequence: change.entry.sequence).map {
          History.Change(entry: $0, old: change.old, new: change.new)
        }
      },
      entriesWithoutState: history.entriesWithoutState)
    screen.viewport.update(
      ids: Array(BrowserView.lines(of: screen, session: session).indices), previousIndex: 0)
    screens.append(.history(screen))
  }

  /// A key on an entry's screen.
  ///
  /// - Returns: Whether `detail` changed and must be stored again.
  private mutating func handleDetail(
    _ key: Key, _ detail: inout Detail, _ session: SessionIndex
  ) -> Bool {
    let lines = BrowserView.lines(of: detail, session: session)
    let selected = Self.selected(detail.viewport, lines)
    switch key {
    case .tab:
      let sections = Section.allCases
      let next = ((sections.firstIndex(of: detail.section) ?? 0) + 1) % sections.count
      show(sections[next], in: &detail, session)
    case .character("p"): show(.payload, in: &detail, session)
    case .character("d"): show(.diff, in: &detail, session)
    case .character("s"): show(.state, in: &detail, session)
    case .character("e"): show(.effects, in: &detail, session)
    case .character("["), .character("]"):
      let position = visible.position(of: detail.entry)
      let step = key == .character("]") ? 1 : -1
      guard let position, visible.indices.contains(position + step) else { return false }
      screens.removeLast()
      open(visible[position + step], detail.section, session)
      return false
    case .enter, .space, .right, .character("l"), .left:
      guard detail.section == .state, let row = selected, let path = row.path else { return false }
      let open = detail.expanded.contains(path)
      if row.isContainer, key == .enter || key == .space || (key == .left) == open {
        if open { detail.expanded.remove(path) } else { detail.expanded.insert(path) }
      } else if key == .left, path.count > 1 {
        // On a value or a closed container, Left goes to the container it is in.
        let parent = Array(path.dropLast())
        if let index = lines.firstIndex(where: { $0.path == parent }) {
          detail.viewport.select(index)
        }
      }
    case .character("h"):
      guard let path = selected?.path else { return false }
      openHistory(path, session)
      return false
    case .character("m"): toggleMark(detail.entry)
    case .character("c"):
      compare(with: detail.entry, session)
      return false
    default:
      return handleCommon(key, &detail.viewport, lines)
    }
    return true
  }

  private mutating func show(_ section: Section, in detail: inout Detail, _ session: SessionIndex) {
    guard detail.section != section else { return }
    detail.section = section
    detail.viewport = ListViewport()
    detail.viewport.update(
      ids: Array(BrowserView.lines(of: detail, session: session).indices), previousIndex: 0)
  }

  private static func selected(
    _ viewport: ListViewport<Int>, _ lines: [BrowserView.Line]
  ) -> BrowserView.Line? {
    guard let index = viewport.selection, lines.indices.contains(index) else { return nil }
    return lines[index]
  }

  // MARK: - Layout

  /// Scrolls the screen in front so that its selection shows in a window of `height` rows;
  /// called before each frame is drawn, so that scrolling is kept from one frame to the next.
  ///
  /// - Complexity: O(lines of the screen in front).
  package mutating func scroll(toShowSelectionIn height: Int, session: SessionIndex) {
    let rows = BrowserView.listHeight(of: self, height: height)
    switch screens.last {
    case nil: _ = timeline.visibleRange(in: visible, height: rows)
    case .detail(var detail)?:
      let ids = Array(BrowserView.lines(of: detail, session: session).indices)
      // A fold can leave the selection past the end: keep it on a line.
      detail.viewport.update(ids: ids, previousIndex: detail.viewport.selection)
      _ = detail.viewport.visibleRange(in: ids, height: rows)
      replaceFront(with: .detail(detail))
    case .comparison(var comparison)?:
      let ids = Array(BrowserView.lines(of: comparison).indices)
      _ = comparison.viewport.visibleRange(in: ids, height: rows)
      replaceFront(with: .comparison(comparison))
    case .history(var history)?:
      let ids = Array(BrowserView.lines(of: history, session: session).indices)
      _ = history.viewport.visibleRange(in: ids, height: rows)
      replaceFront(with: .history(history))
    }
  }
}

extension BrowserState.Screen {
  /// The entries the screen shows, as indices among the log's entries.
  var entries: [Int] {
    switch self {
    case .detail(let detail): [detail.entry]
    case .comparison(let comparison): [comparison.from, comparison.to]
    case .history(let history): history.changes.map(\.entry)
    }
  }
}
