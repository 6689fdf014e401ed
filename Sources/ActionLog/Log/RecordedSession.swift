import Foundation
import StateStore

/// A whole log read into memory for tools that take a session apart: its entries, decoded, with
/// the diff each one recorded and whether a checkpoint came right before it.
///
/// The session shrinker of `StateStoreTesting` reads a log through this: it needs the recorded
/// diffs (to tell when a replay diverges from them) and where each recording run started (to
/// keep what one run did apart from the next), and what the log says of each effect (to write an
/// effect's updaters as `receive`s of the effect, fed its recorded values).
package struct RecordedSession<S: State>: Sendable {
  /// One entry of the log with what the log says around it.
  package struct Entry: Sendable {
    /// The decoded entry.
    package var entry: ActionLogEntry<S>
    /// The changes the entry recorded (`"diff"`), or `nil` when the log has none for it.
    package var diff: [JSONChange]?
    /// Whether a checkpoint comes right before the entry: a recorder that started there, as
    /// each run of a command-line program that records into one file does.
    package var followsCheckpoint: Bool
    /// The position in ``RecordedSession/effects`` of the effect that dispatched the entry, when
    /// the log recorded its start.
    package var effectIndex: Int?
  }

  /// The entries, in order.
  package var entries: [Entry]
  /// The format version the header names.
  package var version: Int
  /// What the log says of each effect: its number, type, payload, values and end, in the order
  /// the effects started.
  package var effects: [RecordedEffect]

  /// Reads every entry of `data`, a log with its header.
  ///
  /// - Throws: ``ActionLogError`` naming the line of the first bad line, or of a diff that does
  ///   not read.
  /// - Complexity: O(size of the log).
  package init(
    _ data: Data, registry: ActionLogRegistry<S>, acceptsTornLastLine: Bool = false
  ) throws(ActionLogError) {
    var reader = try LogReader(
      data: data, registry: registry, acceptsTornLastLine: acceptsTornLastLine,
      readsEffects: true)
    let bytes = [UInt8](data)
    let (lines, tornStart) = JSONLines.readable(bytes)
    var version = ActionLogFormat.versionWithoutDiffs
    if let first = lines.first,
      let header = try? ActionLogHeader.validated(Data(bytes[first]), line: 1),
      let headerVersion = header.version
    {
      version = headerVersion
    }
    var entries: [Entry] = []
    var afterCheckpoint = false
    // Two recorders appending to one file may number effects alike: an entry names the one
    // that started last.
    var effects = GatheredEffects()
    while let event = try reader.next() {
      switch event {
      case .checkpoint:
        afterCheckpoint = true
      case .effect(let effectLine, let line):
        try effects.add(effectLine, line: line)
      case .entry(let entry):
        let index = lines.startIndex + entry.line - 1
        // A last line that lacks only its newline is read from where the torn tail starts.
        let text =
          index < lines.endIndex ? bytes[lines[index]] : tornStart.map { bytes[$0...] } ?? []
        let diff = try Self.diff(in: text, line: entry.line, version: version)
        entries.append(
          Entry(
            entry: entry, diff: diff, followsCheckpoint: afterCheckpoint,
            effectIndex: entry.effect.flatMap { effects.position(of: $0) }))
        afterCheckpoint = false
      }
    }
    self.entries = entries
    self.version = version
    self.effects = effects.effects
  }

  /// The `"diff"` of an entry line, or `nil` when it has none.
  private static func diff(
    in line: ArraySlice<UInt8>, line number: Int, version: Int
  ) throws(ActionLogError) -> [JSONChange]? {
    // Most lines of a log without diffs need no second parse.
    guard line.count > 7, line.firstRange(of: Array("\"diff\"".utf8)) != nil else { return nil }
    let parsed: JSONValue
    do {
      parsed = try JSONParser.parse(line)
    } catch {
      throw .malformedLine(line: number, reason: error.description)
    }
    guard let diff = parsed["diff"] else { return nil }
    guard case .array(let changes) = diff else {
      throw .malformedLine(line: number, reason: "\"diff\" must be an array of changes")
    }
    var result: [JSONChange] = []
    for change in changes {
      do {
        result.append(try JSONChange(json: change, version: version))
      } catch {
        throw .malformedLine(line: number, reason: "a change of \"diff\": \(error.description)")
      }
    }
    return result
  }
}
