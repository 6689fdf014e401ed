import ActionLog
import Foundation

/// The states after chosen entries, found in one pass over a log.
package struct StateLookup: Sendable {
  /// For each entry asked for that the log has: its state, or `nil` when the log does not hold
  /// it (the entries up to it were recorded without diffs and no checkpoint follows it).
  package private(set) var found: [Int: JSONValue?] = [:]
  /// The first and last `seq` of the log, if it has entries.
  package private(set) var sequences: ClosedRange<Int>?
  /// The entries whose checkpoints the log has, the first few.
  package private(set) var checkpoints: [Int] = []
  /// What stopped the reading, if anything did.
  package private(set) var damage: LogDamage?

  /// Finds the state after each entry of `wanted` (0 is the state before the first entry, as
  /// the checkpoint 0 holds it).
  ///
  /// - Complexity: O(size of the log); one state is held at a time, plus the ones found.
  package init(_ wanted: Set<Int>, in data: Data) {
    self.init(wanted, reading: { LogFileReader.scan(data, $0) })
  }

  /// Finds the state after each entry of `wanted` in `input`, reading it a block at a time.
  ///
  /// - Throws: ``InspectorError`` when it cannot be read.
  /// - Complexity: O(size of the log); one state is held at a time, plus the ones found.
  package init(_ wanted: Set<Int>, in input: LogInput) throws(InspectorError) {
    self = try LogFileReader.query(input) { StateLookup(wanted, reading: $0) }
  }

  /// Finds the state after each entry of `wanted` reading as little of `input` as it can:
  /// from the last checkpoint before them (``fromCheckpoint(before:in:)``), or else the whole
  /// log, which also says why a state is missing.
  ///
  /// - Throws: ``InspectorError`` when the log cannot be read.
  /// - Complexity: O(size of the log).
  package static func reading(
    _ wanted: Set<Int>, in input: LogInput
  ) throws(InspectorError) -> StateLookup {
    if let lookup = fromCheckpoint(before: wanted, in: input) { return lookup }
    return try StateLookup(wanted, in: input)
  }

  /// Finds the state after each entry of `wanted` in the log file `input`, reading only the
  /// lines from the last checkpoint before the first of them to the last of them.
  ///
  /// The file's lines are indexed first (``SessionIndex``); the lines before the checkpoint
  /// (the last before the first entry wanted) and after the last entry wanted are not
  /// decoded, but for the line after it when the entry's own line does not hold its state (a
  /// checkpoint there may). `--at N` asks for one entry, `--diff A B` for two.
  ///
  /// The checkpoint numbered like the first entry is a start only when the lines from the one
  /// before do not give every state (damage among them, or no diffs): in a log several
  /// recorders share, it may be another store's state, which that store wrote after the entry
  /// as the base of its own next entry.
  ///
  /// - Returns: `nil` when `input` is not a file, has no such checkpoint, or the lines from
  ///   it do not hold the state after each entry: the log must then be read from its start.
  /// - Complexity: O(size of the log) for the index (one `memchr` pass), then O(lines from
  ///   the checkpoint to the last entry wanted).
  package static func fromCheckpoint(
    before wanted: Set<Int>, in input: LogInput
  ) -> StateLookup? {
    guard case .file(let path) = input, let first = wanted.min(), let last = wanted.max(),
      var session = try? SessionIndex(path: path)
    else { return nil }
    session.progress = nil
    while session.read(upTo: LineIndex.chunkBytes * 8, following: false) != .finished {}
    var starts: [Int] = []
    for start in [max(first - 1, 0), first].map(session.lastCheckpoint(atOrBefore:)) {
      if let start, !starts.contains(start) { starts.append(start) }
    }
    for line in starts {
      let lookup = StateLookup(wanted) { visit in
        session.scan(fromCheckpointOnLine: line) { record, state throws(LogDamage) in
          let more = try visit(record, state)
          // Past the last entry wanted, or at it with its state; without its state, one more
          // line, for a checkpoint that holds it.
          switch record {
          case .entry(let entry):
            if entry.sequence > last || (entry.sequence == last && state != nil) { return false }
          case .checkpoint(let sequence, _, _):
            if sequence >= last { return false }
          case .effect:
            break
          }
          return more
        }
      }
      // Without every state, the next start, or the log read whole, which says why, with the
      // numbers of the whole log.
      if wanted.allSatisfy({ if case .some(.some) = lookup.found[$0] { true } else { false } }) {
        return lookup
      }
    }
    return nil
  }

  private init(_ wanted: Set<Int>, reading scan: (LogFileReader.Visitor) -> LogDamage?) {
    var first: Int?
    var last: Int?
    var found: [Int: JSONValue?] = [:]
    var checkpoints: [Int] = []
    damage = scan { record, state in
      switch record {
      case .entry(let entry):
        first = first ?? entry.sequence
        last = entry.sequence
        if wanted.contains(entry.sequence) { found[entry.sequence] = .some(state) }
      case .checkpoint(let sequence, _, let state):
        if checkpoints.count < 10 { checkpoints.append(sequence) }
        // The state after the entry, when its diff gave it, is the entry's own store's; a
        // checkpoint numbered like it comes after it, and in a shared log may hold the state
        // of the store that writes next. It answers only for an entry without a diff.
        if wanted.contains(sequence), found[sequence].flatMap({ $0 }) == nil {
          found[sequence] = .some(state)
        }
      case .effect:
        break
      }
      return true
    }
    self.found = found
    self.checkpoints = checkpoints
    if let first, let last { sequences = first...last }
  }

  /// The state after entry `sequence`.
  ///
  /// - Throws: ``InspectorError`` saying why the log does not hold it.
  package func state(after sequence: Int) throws(InspectorError) -> JSONValue {
    guard let entry = found[sequence] else {
      if sequence == 0 {
        throw InspectorError(
          "the log does not hold the state before its first entry: it has no checkpoint 0")
      }
      let range = sequences.map { "its entries run from \($0.lowerBound) to \($0.upperBound)" }
      var message = "the log has no entry \(sequence) (\(range ?? "it has no entries")"
      if damage != nil { message += " before the damage" }
      throw InspectorError(message + ")")
    }
    guard let state = entry else {
      let known =
        checkpoints.isEmpty
        ? "it has no checkpoints"
        : "checkpoints hold the state after entries "
          + checkpoints.map(String.init).joined(separator: ", ")
      throw InspectorError(
        "the log does not hold the state after entry \(sequence): the entries up to it were "
          + "recorded without diffs (ActionRecorder.Options(recordsDiffs: true)), and \(known)")
    }
    return state
  }
}

/// The entries that changed one path of the state.
package struct PathHistory: Sendable {
  /// One change of the path.
  package struct Change: Sendable {
    /// The entry that made it.
    package var entry: InspectedEntry
    /// The value before, `nil` when the path did not exist.
    package var old: JSONValue?
    /// The value after, `nil` when the path no longer exists.
    package var new: JSONValue?
  }

  /// The path; an element step follows its element wherever it moves.
  package let path: [PathStep]
  /// The changes, in the order of the log.
  package private(set) var changes: [Change] = []
  /// How many entries came where the log does not hold the state, so they could not be checked.
  package private(set) var entriesWithoutState = 0
  /// What stopped the reading, if anything did.
  package private(set) var damage: LogDamage?

  /// Finds every entry after which the value at `path` differs from the value before it.
  ///
  /// - Complexity: O(size of the log); one state is held at a time.
  package init(of path: [PathStep], in data: Data) {
    self.init(of: path) { visit in LogFileReader.scan(data, visit) }
  }

  /// Finds every entry after which the value at `path` differs from the value before it, in
  /// the records that `scan` visits in order, each with the state after it; `scan` returns
  /// what stopped it, if anything did.
  ///
  /// - Complexity: O(records visited), plus what `scan` costs.
  package init(
    of path: [PathStep],
    scan: ((LogRecord, JSONValue?) throws(LogDamage) -> Bool) -> LogDamage?
  ) {
    self.path = path
    var changes: [Change] = []
    (damage, entriesWithoutState) = Self.visit(path, reading: scan) { changes.append($0) }
    self.changes = changes
  }

  /// Writes the entries of `input` that changed `path` as it reads them, in JSON (the
  /// document ``json`` gives) or as ``text``, and returns the damage met.
  ///
  /// - Throws: ``InspectorError`` when `input` cannot be read.
  /// - Complexity: O(size of the log); one state is held at a time, and no change is kept.
  package static func write(
    of path: [PathStep], in input: LogInput, json: Bool, to write: (String) -> Void
  ) throws(InspectorError) -> LogDamage? {
    var count = 0
    if json {
      write("{\"path\":" + JSONValue.string(JSONPath.text(path)).text() + ",\"changes\":[")
    }
    let (damage, unknown) = try LogFileReader.query(input) { scan in
      visit(path, reading: scan) { change in
        if json {
          write((count > 0 ? "," : "") + Self.json(change).text())
        } else {
          write(Self.text(change))
        }
        count += 1
      }
    }
    if json {
      write("],\"entriesWithoutState\":\(unknown)}\n")
    } else {
      write(Self.closingText(path: path, changes: count, entriesWithoutState: unknown))
    }
    return damage
  }

  /// Calls `body` with each change of the value at `path`, in the order of the log.
  ///
  /// - Returns: The damage met, and how many entries came where the state was unknown.
  static func visit(
    _ path: [PathStep], reading scan: (LogFileReader.Visitor) -> LogDamage?,
    _ body: (Change) -> Void
  ) -> (damage: LogDamage?, entriesWithoutState: Int) {
    var unknown = 0
    // Only the value at the path is kept from one record to the next, not the whole state.
    var previous: (known: Bool, value: JSONValue?) = (false, nil)
    let damage = withoutActuallyEscaping(body) { body in
      visitRecords(scan, path: path, previous: &previous, unknown: &unknown, body)
    }
    return (damage, unknown)
  }

  private static func visitRecords(
    _ scan: (LogFileReader.Visitor) -> LogDamage?, path: [PathStep],
    previous: inout (known: Bool, value: JSONValue?), unknown: inout Int,
    _ body: @escaping (Change) -> Void
  ) -> LogDamage? {
    // Where the path's elements named by identifier were last found, from state to state.
    var hints = PositionHints()
    return scan { record, state in
      let current = (known: state != nil, value: state?.value(at: path, hints: &hints))
      defer { previous = current }
      guard case .entry(let entry) = record else { return true }
      guard previous.known, current.known else {
        unknown += 1
        return true
      }
      if previous.value != current.value {
        body(Change(entry: entry, old: previous.value, new: current.value))
      }
      return true
    }
  }

  /// `{"path":…,"changes":[{"seq":…,"line":…,"type":…,"scope":…,"cause":…,"time":…,"old":…,
  /// "new":…}],"entriesWithoutState":n}`; `old` or `new` is missing where the path was not.
  package var json: JSONValue {
    var object = JSONObject()
    object["path"] = .string(JSONPath.text(path))
    object["changes"] = .array(changes.map(Self.json))
    object["entriesWithoutState"] = .number(String(entriesWithoutState))
    return .object(object)
  }

  /// One change, as an element of ``json``'s `changes`.
  private static func json(_ change: Change) -> JSONValue {
    var item = JSONObject()
    item["seq"] = .number(String(change.entry.sequence))
    item["line"] = .number(String(change.entry.line))
    item["type"] = .string(change.entry.type)
    item["scope"] = .string(change.entry.scope)
    if let cause = change.entry.cause { item["cause"] = .string(cause) }
    if let time = change.entry.time { item["time"] = .number(TimeText.seconds(time)) }
    if let old = change.old { item["old"] = old }
    if let new = change.new { item["new"] = new }
    return .object(item)
  }

  /// One line per change: `seq 3 (line 5) EditTitle: "a" → "b"`.
  package var text: String {
    changes.map(Self.text).joined()
      + Self.closingText(
        path: path, changes: changes.count, entriesWithoutState: entriesWithoutState)
  }

  /// One change, as a line of ``text``.
  private static func text(_ change: Change) -> String {
    "seq \(change.entry.sequence) (line \(change.entry.line)) "
      + TextOutput.label(change.entry) + ": " + TextOutput.value(change.old) + " → "
      + TextOutput.value(change.new) + "\n"
  }

  /// The lines after the changes in ``text``.
  private static func closingText(path: [PathStep], changes: Int, entriesWithoutState: Int)
    -> String
  {
    var text = ""
    if changes == 0 { text += "no entry changed \(TextOutput.safe(JSONPath.text(path)))\n" }
    if entriesWithoutState > 0 {
      text += "\(entriesWithoutState) entries could not be checked: recorded without diffs\n"
    }
    return text
  }
}
