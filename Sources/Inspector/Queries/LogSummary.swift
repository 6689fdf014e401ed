import ActionLog
import Foundation

/// What a log holds, in counts: `--summary`.
package struct LogSummary: Sendable {
  /// The longest pause between two timed entries.
  package struct Gap: Sendable {
    /// The entry before the pause.
    package var after: Int
    /// The entry after it.
    package var before: Int
    /// Its length, in seconds: between the two times rounded to the millisecond.
    package var seconds: Double
  }

  /// How many slowest gaps the summary keeps.
  package static let gapCount = 5

  /// How many entries, recorded or not.
  package private(set) var entries = 0
  /// How many of them are unrecorded markers.
  package private(set) var unrecorded = 0
  /// How many carry a diff.
  package private(set) var entriesWithDiff = 0
  /// How many checkpoints.
  package private(set) var checkpoints = 0
  /// How many side effects started.
  package private(set) var effects = 0
  /// The first and last `seq`.
  package private(set) var sequences: ClosedRange<Int>?
  /// Entries by type.
  package private(set) var types: [String: Int] = [:]
  /// Entries by scope, `""` for the root.
  package private(set) var scopes: [String: Int] = [:]
  /// Entries by cause, `""` for none.
  package private(set) var causes: [String: Int] = [:]
  /// The first and last time of a timed entry.
  package private(set) var times: ClosedRange<Double>?
  /// The longest pauses between consecutive timed entries, longest first.
  package private(set) var slowestGaps: [Gap] = []
  /// What stopped the reading, if anything did.
  package private(set) var damage: LogDamage?
  private var lastTimed: (sequence: Int, time: Double)?

  /// Counts the log in `data`.
  ///
  /// - Complexity: O(size of the log); one record is held at a time.
  package init(of data: Data) {
    self.init(reading: { LogFileReader.scan(data, $0) })
  }

  /// Counts the log `input`, reading it once, a block at a time.
  ///
  /// - Throws: ``InspectorError`` when it cannot be read.
  /// - Complexity: O(size of the log); one record is held at a time.
  package init(of input: LogInput) throws(InspectorError) {
    self = try LogFileReader.query(input) { LogSummary(reading: $0) }
  }

  private init(reading scan: (LogFileReader.Visitor) -> LogDamage?) {
    var summary = LogSummary()
    summary.damage = scan { record, _ in
      summary.add(record)
      return true
    }
    self = summary
  }

  private init() {}

  private mutating func add(_ record: LogRecord) {
    let entry: InspectedEntry
    switch record {
    case .entry(let read): entry = read
    case .checkpoint:
      checkpoints += 1
      return
    case .effect(.start, _):
      effects += 1
      return
    case .effect:
      return
    }
    entries += 1
    if entry.unrecordedReason != nil { unrecorded += 1 }
    if entry.diff != nil { entriesWithDiff += 1 }
    sequences = (sequences?.lowerBound ?? entry.sequence)...entry.sequence
    types[entry.type, default: 0] += 1
    scopes[entry.scope, default: 0] += 1
    causes[entry.cause ?? "", default: 0] += 1
    guard let time = entry.time else { return }
    times = times.map { min($0.lowerBound, time)...max($0.upperBound, time) } ?? time...time
    if let lastTimed {
      noteGap(
        Gap(
          after: lastTimed.sequence, before: entry.sequence,
          seconds: TimeText.duration(from: lastTimed.time, to: time)))
    }
    lastTimed = (entry.sequence, time)
  }

  private mutating func noteGap(_ gap: Gap) {
    guard slowestGaps.count < Self.gapCount || gap.seconds > (slowestGaps.last?.seconds ?? 0)
    else { return }
    let position = slowestGaps.firstIndex { $0.seconds < gap.seconds } ?? slowestGaps.count
    slowestGaps.insert(gap, at: position)
    if slowestGaps.count > Self.gapCount { slowestGaps.removeLast() }
  }

  /// The summary as one JSON object; see the inspector's documentation for its keys.
  package var json: JSONValue {
    func counts(_ table: [String: Int]) -> JSONValue {
      .object(
        JSONObject(table.sorted { $0.key < $1.key }.map { ($0.key, .number(String($0.value))) }))
    }
    var object = JSONObject()
    object["entries"] = .number(String(entries))
    object["unrecorded"] = .number(String(unrecorded))
    object["entriesWithDiff"] = .number(String(entriesWithDiff))
    object["checkpoints"] = .number(String(checkpoints))
    if effects > 0 { object["effects"] = .number(String(effects)) }
    object["firstSeq"] = sequences.map { .number(String($0.lowerBound)) } ?? .null
    object["lastSeq"] = sequences.map { .number(String($0.upperBound)) } ?? .null
    object["types"] = counts(types)
    object["scopes"] = counts(scopes)
    object["causes"] = counts(causes)
    if let times {
      object["timeSpan"] = .object(
        JSONObject([
          ("first", .number(TimeText.seconds(times.lowerBound))),
          ("last", .number(TimeText.seconds(times.upperBound))),
          (
            "seconds",
            .number(
              TimeText.seconds(TimeText.duration(from: times.lowerBound, to: times.upperBound)))
          ),
        ]))
    } else {
      object["timeSpan"] = .null
    }
    object["slowestGaps"] = .array(
      slowestGaps.map { gap in
        .object(
          JSONObject([
            ("after", .number(String(gap.after))), ("before", .number(String(gap.before))),
            ("seconds", .number(TimeText.seconds(gap.seconds))),
          ]))
      })
    return .object(object)
  }

  /// The summary for people, a few lines.
  package var text: String {
    var text = "entries: \(entries)"
    if let sequences { text += " (seq \(sequences.lowerBound)…\(sequences.upperBound))" }
    text += ", unrecorded: \(unrecorded), with diffs: \(entriesWithDiff)"
    text += ", checkpoints: \(checkpoints)"
    if effects > 0 { text += ", effects: \(effects)" }
    text += "\n"
    func table(_ title: String, _ counts: [String: Int], empty: String) {
      guard !counts.isEmpty else { return }
      text += title + ":\n"
      for (key, count) in counts.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
        text += "  \(count)  \(key.isEmpty ? empty : TextOutput.safe(key))\n"
      }
    }
    table("types", types, empty: "(none)")
    table("scopes", scopes, empty: "(root)")
    table("causes", causes, empty: "(none)")
    if let times {
      text +=
        "time span: \(TimeText.date(times.lowerBound)) … \(TimeText.date(times.upperBound))"
      text +=
        " (\(TimeText.seconds(TimeText.duration(from: times.lowerBound, to: times.upperBound))) s)\n"
    } else {
      text += "time span: the entries have no times\n"
    }
    for gap in slowestGaps {
      text +=
        "gap: \(TimeText.seconds(gap.seconds)) s between seq \(gap.after) and \(gap.before)\n"
    }
    return text
  }
}
