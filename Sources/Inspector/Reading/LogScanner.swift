import ActionLog
import Foundation

/// Reads the lines of an action log, one at a time, into ``LogRecord``s, checking what a
/// generic reader can check: the header, the shape of each line, the order of `seq` numbers,
/// the place of checkpoints.
///
/// It is fed whole lines, so it serves a file read at once and a file still being written.
package struct LogScanner {
  /// The longest line read: longer ones are damage, so a hostile file cannot exhaust memory
  /// one line at a time.
  package static let maximumLineLength = 64 << 20

  private var hasHeader = false
  /// The format version the header names, which says how diffs' paths are written.
  package private(set) var version = ActionLogFormat.versionWithoutDiffs
  private var lastSequence: Int?
  /// Whether the entry before the next line is known: not for a line read again on its own.
  private var knowsOrder = true
  /// The number of the line the next call reads.
  package private(set) var nextLineNumber = 1

  /// Creates a scanner that expects the header first, on line `line` (blank lines before it
  /// are skipped).
  package init(line: Int = 1) {
    nextLineNumber = line
  }

  /// Creates a scanner that reads one line again, on its own: line `line` of a log of format
  /// version `version` whose header has been read, without checking its order against the
  /// lines before it.
  package init(rereadingLine line: Int, version: Int) {
    hasHeader = true
    nextLineNumber = line
    knowsOrder = false
    self.version = version
  }

  /// Creates a scanner that reads on from line `line` of a log of format version `version`
  /// whose header has been read, after the entry `seq` `lastSequence` (`nil`: before the first
  /// entry), checking the order of each line as a scanner that read the log from its start
  /// would.
  package init(resumingAtLine line: Int, after lastSequence: Int?, version: Int) {
    hasHeader = true
    nextLineNumber = line
    self.lastSequence = lastSequence
    self.version = version
  }

  /// Whether the header has been read.
  package var hasReadHeader: Bool { hasHeader }

  /// The `seq` of the last entry read (`nil` before the first): what the next line's order is
  /// checked against.
  package var lastSequenceRead: Int? { lastSequence }

  /// Reads one line, without its newline.
  ///
  /// - Returns: The record, or `nil` for the header and blank lines.
  /// - Throws: ``LogDamage`` naming the line.
  /// - Complexity: O(length of the line).
  package mutating func read(_ bytes: [UInt8], _ range: Range<Int>) throws(LogDamage) -> LogRecord?
  {
    let line = nextLineNumber
    nextLineNumber += 1
    var range = range
    if range.upperBound > range.lowerBound, bytes[range.upperBound - 1] == 0x0D {
      range = range.lowerBound..<range.upperBound - 1
    }
    if bytes[range].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
    guard range.count <= Self.maximumLineLength else {
      throw LogDamage(line: line, reason: "longer than \(Self.maximumLineLength) bytes")
    }
    guard hasHeader else {
      do {
        let header = try ActionLogHeader.validated(Data(bytes[range]), line: line)
        version = header.version ?? ActionLogFormat.versionWithoutDiffs
      } catch {
        throw LogDamage(line: line, reason: Self.withoutPrefix(error.description, line: line))
      }
      hasHeader = true
      return nil
    }
    let value: JSONValue
    do {
      value = try JSONParser.parse(bytes, in: range)
    } catch {
      let offset = error.offset - range.lowerBound
      throw LogDamage(line: line, reason: "not JSON: \(error.reason) at byte \(offset)")
    }
    guard case .object(let object) = value else {
      throw LogDamage(line: line, reason: "not a JSON object")
    }
    return try record(object, line: line)
  }

  private mutating func record(_ object: JSONObject, line: Int) throws(LogDamage) -> LogRecord {
    func fail(_ reason: String) -> LogDamage { LogDamage(line: line, reason: reason) }
    if let number = object["checkpoint"] {
      guard let sequence = number.intValue, sequence >= 0, sequence < Int.max else {
        throw fail("\"checkpoint\" must be an entry's seq, or 0")
      }
      guard let state = object["state"] else { throw fail("a checkpoint needs \"state\"") }
      let expected = lastSequence ?? 0
      guard sequence == expected || !knowsOrder else {
        throw fail(
          "checkpoint \(sequence) does not follow entry \(expected): a checkpoint holds the "
            + "state after the entry just before it")
      }
      return .checkpoint(sequence: sequence, line: line, state: state)
    }
    if object["seq"] == nil, object["effect"] != nil {
      do {
        return .effect(
          try EffectLine.parse(.object(object), line: line, after: lastSequence ?? 0), line: line)
      } catch {
        throw fail(Self.withoutPrefix(error.description, line: line))
      }
    }
    guard let number = object["seq"] else {
      throw fail("neither an entry (\"seq\", \"type\", \"payload\") nor a checkpoint")
    }
    guard let sequence = number.intValue, sequence >= 1, sequence < Int.max else {
      throw fail("\"seq\" must be a whole number from 1")
    }
    if let lastSequence, sequence <= lastSequence {
      throw fail("seq \(sequence) does not follow seq \(lastSequence)")
    }
    var entry = InspectedEntry(sequence: sequence, line: line, type: "", scope: "")
    if let unrecorded = object["unrecorded"] {
      guard let type = unrecorded.stringValue else { throw fail("\"unrecorded\" must be a string") }
      entry.type = type
      entry.unrecordedReason = object["reason"]?.stringValue ?? "unknown reason"
    } else {
      guard let type = object["type"]?.stringValue else { throw fail("missing \"type\"") }
      entry.type = type
      entry.payload = object["payload"] ?? .null
    }
    entry.scope = try optionalString(object, "scope", line: line) ?? ""
    entry.cause = try optionalString(object, "cause", line: line)
    entry.site = try optionalString(object, "site", line: line)
    entry.causeSite = try optionalString(object, "causeSite", line: line)
    if let effect = object["effect"] {
      guard let number = effect.intValue, number >= 1 else {
        throw fail("\"effect\" must be an effect's number, from 1")
      }
      entry.effect = number
    }
    if case .array(let parents)? = object["causeParents"] {
      entry.causeParents = parents.compactMap { parent in
        guard case .object(let step) = parent, let name = step["name"]?.stringValue else {
          return nil
        }
        return CauseStep(name: name, site: step["site"]?.stringValue)
      }
    }
    if let time = object["time"] {
      guard let seconds = time.doubleValue, seconds.isFinite else {
        throw fail("\"time\" must be a number of seconds")
      }
      entry.time = seconds
    }
    if let diff = object["diff"] {
      guard case .array(let operations) = diff else { throw fail("\"diff\" must be an array") }
      var changes: [JSONChange] = []
      changes.reserveCapacity(operations.count)
      for (index, operation) in operations.enumerated() {
        do {
          changes.append(try JSONChange(json: operation, version: version))
        } catch {
          throw fail("diff[\(index)]: \(error.reason)")
        }
      }
      entry.diff = changes
    }
    lastSequence = sequence
    knowsOrder = true
    return .entry(entry)
  }

  private func optionalString(
    _ object: JSONObject, _ key: String, line: Int
  ) throws(LogDamage) -> String? {
    guard let value = object[key] else { return nil }
    guard let text = value.stringValue else {
      throw LogDamage(line: line, reason: "\"\(key)\" must be a string")
    }
    return text
  }

  /// An `ActionLogError`'s description without its `action log line N: ` prefix.
  private static func withoutPrefix(_ text: String, line: Int) -> String {
    let prefix = "action log line \(line): "
    return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
  }
}

/// Reads a whole log, record by record, up to the first damage.
package enum LogFileReader {
  /// What a scan calls with each record and the encoded state after it, if known; it returns
  /// `false` to stop the scan.
  package typealias Visitor = (LogRecord, _ state: JSONValue?) throws(LogDamage) -> Bool

  /// Calls `visit` with every record of `data`, in order, and the encoded state after it (see
  /// ``StateTracker``), and returns what stopped the reading, if anything did; `visit` returns
  /// `false` to stop early.
  ///
  /// - Complexity: O(size of the log), plus what `visit` costs.
  package static func scan(
    _ data: Data, _ visit: Visitor
  ) -> LogDamage? {
    var lines = LineStream(data, maximumLineLength: LogScanner.maximumLineLength)
    do {
      return try scan(&lines, visit)
    } catch {
      // Bytes in memory are always readable.
      return nil
    }
  }

  /// Calls `visit` with every record of `input`, in order, and the encoded state after it (see
  /// ``StateTracker``), and returns what stopped the reading, if anything did; `visit` returns
  /// `false` to stop early.
  ///
  /// Every question checks the whole log alike: a diff that does not fit its state is damage
  /// for a summary too. A last line without a newline counts if it is complete JSON (a
  /// hand-edited file); otherwise it is damage: the write that a crash cut short.
  ///
  /// - Throws: ``InspectorError`` when the file cannot be read.
  /// - Complexity: O(size of the log), plus what `visit` costs; one block of the file, one
  ///   record and one state are held at a time.
  package static func scan(
    _ input: LogInput, _ visit: Visitor
  ) throws(InspectorError) -> LogDamage? {
    switch input {
    case .bytes(let data):
      return scan(data, visit)
    case .file(let path):
      var lines = try LineStream(path: path, maximumLineLength: LogScanner.maximumLineLength)
      return try scan(&lines, visit)
    case .journal(let directory):
      return try JournalReader(directory: directory).scan(visit)
    case .snapshot(let path):
      let snapshot = try readSnapshot(path)
      do throws(LogDamage) {
        let record = try snapshot.get().checkpoint
        var tracker = StateTracker()
        try tracker.apply(record)
        _ = try visit(record, tracker.state)
        return nil
      } catch {
        return error
      }
    }
  }

  /// Builds a query with `make`, which reads `input` through the scan it is given; a failure to
  /// read is thrown once the query is built.
  ///
  /// - Throws: ``InspectorError`` when `input` cannot be read.
  package static func query<Query>(
    _ input: LogInput, _ make: ((Visitor) -> LogDamage?) -> Query
  ) throws(InspectorError) -> Query {
    var failure: InspectorError?
    let query = make { visit in
      do throws(InspectorError) {
        return try scan(input, visit)
      } catch {
        failure = error
        return nil
      }
    }
    if let failure { throw failure }
    return query
  }

  private static func scan(
    _ lines: inout LineStream, _ visit: Visitor
  ) throws(InspectorError) -> LogDamage? {
    var scanner = LogScanner()
    var tracker = StateTracker()
    while let line = try lines.next() {
      do throws(LogDamage) {
        switch line {
        case .overlong:
          throw LogDamage(
            line: scanner.nextLineNumber,
            reason: "longer than \(LogScanner.maximumLineLength) bytes")
        case .complete(let range):
          guard let record = try scanner.read(lines.buffer, range) else { continue }
          try tracker.apply(record)
          if try !visit(record, tracker.state) { return nil }
        case .tail(let range):
          if let record = try readLastLine(lines.buffer, range, with: &scanner) {
            try tracker.apply(record)
            _ = try visit(record, tracker.state)
          }
        }
      } catch {
        return error
      }
    }
    return lines.isEmpty ? emptyFile : nil
  }

  /// The damage of a file with nothing in it.
  package static let emptyFile = LogDamage(line: 1, reason: "empty file: no header")

  /// Reads the last line of a log read whole when it has no newline: it counts if it is
  /// complete JSON (a hand-edited file), and is damage otherwise (the write a crash cut short).
  ///
  /// - Returns: The record, or `nil` for a blank line.
  /// - Throws: ``LogDamage`` naming the line.
  /// - Complexity: O(length of the line).
  package static func readLastLine(
    _ bytes: [UInt8], _ line: Range<Int>, with scanner: inout LogScanner
  ) throws(LogDamage) -> LogRecord? {
    if JSONLines.isNULLine(bytes[line]) || (try? JSONParser.parse(bytes, in: line)) == nil {
      throw LogDamage(
        line: scanner.nextLineNumber,
        reason: "the last line is incomplete (no newline, not JSON): a write cut short")
    }
    return try scanner.read(bytes, line)
  }

  /// Reads the snapshot at `path` by its own rules (see ``SnapshotReader``): its contents, or
  /// the damage found.
  ///
  /// - Throws: ``InspectorError`` when the file cannot be read, or a newer version of
  ///   `StatePersistence` wrote it.
  /// - Complexity: O(size of the file).
  package static func readSnapshot(
    _ path: String
  ) throws(InspectorError) -> Result<SnapshotContents, LogDamage> {
    let bytes = [UInt8](try read(path))
    if let newer = SnapshotReader.newerVersion(bytes) { throw InspectorError(newer) }
    return Result { () throws(LogDamage) in try SnapshotReader.read(bytes, file: nil) }
  }

  /// Reads the file at `path` whole.
  ///
  /// - Throws: A message naming the file when it cannot be read.
  package static func read(_ path: String) throws(InspectorError) -> Data {
    do {
      return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
    } catch {
      throw InspectorError("cannot read \(path): \(error.localizedDescription)")
    }
  }
}

/// A failure to report with exit status 1: a file that cannot be read or written, a question the
/// log cannot answer.
package struct InspectorError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The message, without the program's name.
  package var description: String

  /// Creates an error with `message`.
  package init(_ message: String) {
    description = message
  }
}
