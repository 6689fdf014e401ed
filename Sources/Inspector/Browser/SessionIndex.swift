import ActionLog
import Foundation
import Synchronization

/// A log as the terminal interface holds it: where each of its lines is, which lines are
/// entries, the checkpoints decoded, and any entry or state read from its line when asked for.
///
/// Reading a log whole builds only this index (``read(upTo:following:)``): each newline found
/// with `memchr` (``LineIndex``), and each line told apart by its first bytes in the same pass.
/// A line that begins `{"seq":` is an entry and is not decoded; any other line (the header,
/// checkpoints, blank lines, an entry written some other way) is decoded at once. So the whole
/// read costs little more than reading the file a chunk at a time and splitting it into lines
/// (I3 in `store-bench`), and memory holds one offset per line (4 bytes), not the entries.
///
/// An entry is decoded from its line when it is shown, filtered or searched; the last
/// ``cachedEntryLimit`` decoded are kept. The state after an entry is found by applying the
/// entries from the nearest checkpoint or kept state before it; the state after every
/// ``savedStateInterval``-th line reached so is kept, so the next question nearby is quick.
///
/// A line is checked when it is decoded: damage in an entry's line, an entry out of order, a
/// diff that does not fit its state is found when that line is read, and from then on the log
/// ends before it (``damage``, ``entryCount``). Damage in a line decoded while reading (the
/// header, a line that is not an entry's, a last line cut short) stops the reading there.
package struct SessionIndex: Sendable {
  /// How many lines apart the kept states are.
  package static let savedStateInterval = 64
  /// The most entries read from the file that are kept decoded.
  package static let cachedEntryLimit = 512
  /// How an entry's line begins, as the recorder writes it.
  static let entryPrefix = LinePrefix(#"{"seq":"#.utf8)

  /// What reading did.
  package enum Reading: Equatable, Sendable {
    /// A whole chunk was read: there is more now.
    case more
    /// The end of the file was reached; a followed log may grow.
    case caughtUp
    /// The log is read whole, or damaged, or unreadable: there is nothing more to read.
    case finished
  }

  /// A checkpoint, kept decoded.
  struct Checkpoint: Sendable {
    var sequence: Int
    var state: JSONValue
  }

  /// The log's bytes.
  let lines: LogLines
  /// Where each line ends.
  var index = LineIndex()
  /// How many of the index's lines have been told apart.
  var classifiedLines = 0
  /// Whether the header has been read.
  var hasHeader = false
  /// The format version the header names, once read.
  var formatVersion = ActionLogFormat.versionWithoutDiffs
  /// The lines that are not entries (the header, checkpoints, blank lines), in order.
  var otherLines: [Int] = []
  /// The lines of the checkpoints, in order.
  var checkpointLines: [Int] = []
  /// The checkpoints, by line.
  var checkpoints: [Int: Checkpoint] = [:]
  /// What stopped the reading, if anything did.
  var readingDamage: LogDamage?
  /// The entries and states decoded since, and the damage found decoding them.
  let decoded = DecodedLines()
  /// The chunk read last.
  var chunk: [UInt8] = []
  /// How much of a log read whole has been read so far; `nil` once it is read, and for a log
  /// that is not read a chunk at a time.
  package var progress: ReadingProgress?

  /// Creates an index of the log in `lines`, which has read nothing yet.
  package init(lines: LogLines) {
    self.lines = lines
  }

  // MARK: - What the log holds

  /// What stopped the reading, or the first damage found in a line decoded since.
  package var damage: LogDamage? {
    switch (readingDamage, decoded.damage) {
    case (let reading?, let found?): found.line < reading.line && found.line > 0 ? found : reading
    case (let reading, let found): reading ?? found
    }
  }

  /// The number of lines that count: the ones before the damage.
  private var lineCount: Int {
    guard let damage, damage.line > 0 else { return classifiedLines }
    return min(damage.line - 1, classifiedLines)
  }

  /// The number of entries before the damage.
  package var entryCount: Int { entries(before: lineCount) }

  /// The number of lines indexed, whatever they hold.
  package var linesRead: Int { classifiedLines }

  /// The number of entries held decoded: the last read from the file.
  package var decodedEntryCount: Int { decoded.entryCount }

  /// The number of entries on the lines before `line`.
  private func entries(before line: Int) -> Int {
    line - Self.count(of: otherLines, below: line)
  }

  /// How many of `sorted`'s values are less than `value`.
  ///
  /// - Complexity: O(log n).
  private static func count(of sorted: [Int], below value: Int) -> Int {
    sorted.partitioningIndex { $0 >= value }
  }

  /// The line of the entry at `index` among the entries.
  ///
  /// - Complexity: O(log n) in the lines that are not entries.
  private func line(ofEntry index: Int) -> Int? {
    guard index >= 0, index < entryCount else { return nil }
    // The entry's line is `index` plus the other lines before it: the lines `other` whose
    // position less their rank is at most `index`, a value that never decreases.
    var low = 0
    var high = otherLines.count
    while low < high {
      let middle = low + (high - low) / 2
      if otherLines[middle] - middle <= index { low = middle + 1 } else { high = middle }
    }
    return index + low
  }

  /// The entry at `index` among the entries (not its `seq`), read from its line when it is not
  /// among the last read.
  ///
  /// - Complexity: O(length of its line).
  package func entry(_ index: Int) -> InspectedEntry? {
    guard let line = line(ofEntry: index) else { return nil }
    if let entry = decoded.entry(onLine: line) { return entry }
    guard let range = self.index.range(ofLine: line), let bytes = try? lines.bytes(at: range)
    else { return nil }
    var scanner = LogScanner(rereadingLine: line + 1, version: formatVersion)
    do throws(LogDamage) {
      guard case .entry(let entry)? = try scanner.read(bytes, bytes.indices) else {
        throw LogDamage(line: line + 1, reason: "a line that begins as an entry is not one")
      }
      decoded.insert(entry, onLine: line)
      return entry
    } catch {
      decoded.found(error)
      return nil
    }
  }

  /// The index among the entries of the entry with `seq` `sequence`.
  ///
  /// - Complexity: O(log n) entries read: the entries are in `seq` order.
  package func entryIndex(sequence: Int) -> Int? {
    var low = 0
    var high = entryCount - 1
    while low <= high {
      let middle = low + (high - low) / 2
      guard let found = entry(middle)?.sequence else { return nil }
      if found == sequence { return middle }
      if found < sequence { low = middle + 1 } else { high = middle - 1 }
    }
    return nil
  }

  /// The side effects' lines between the entry at `index` among the entries and the next entry
  /// (or the end of the lines read): the starts of the effects that began after it, and the
  /// values and ends recorded meanwhile, in order.
  ///
  /// - Complexity: O(length of the lines between the two entries).
  package func effects(afterEntry index: Int) -> [EffectLine] {
    guard let start = line(ofEntry: index) else { return [] }
    let end = line(ofEntry: index + 1) ?? lineCount
    let others = otherLines[
      Self.count(of: otherLines, below: start + 1)..<Self.count(of: otherLines, below: end)]
    var effects: [EffectLine] = []
    for other in others {
      guard let range = self.index.range(ofLine: other), let bytes = try? lines.bytes(at: range)
      else { break }
      var scanner = LogScanner(rereadingLine: other + 1, version: formatVersion)
      // Read once already, when the log was indexed: a line that does not read now (the file
      // changed under the reader) ends the list.
      let record: LogRecord?
      do throws(LogDamage) {
        record = try scanner.read(bytes, bytes.indices)
      } catch {
        break
      }
      if case .effect(let effect, _)? = record { effects.append(effect) }
    }
    return effects
  }

  /// The state before the first entry: the checkpoint 0, when the log has one there.
  package var initialState: JSONValue? {
    guard let line = checkpointLines.first, entries(before: line) == 0,
      let checkpoint = checkpoints[line], checkpoint.sequence == 0
    else { return nil }
    return checkpoint.state
  }

  /// The state after the entry at `index` among the entries, `nil` when the log does not hold
  /// it.
  ///
  /// - Complexity: O(lines from the nearest checkpoint or kept state before it), then
  ///   O(``savedStateInterval`` lines) for entries near it, plus a copy of the state.
  package func state(afterEntry index: Int) -> JSONValue? {
    guard let line = line(ofEntry: index) else { return nil }
    return state(afterLine: line)
  }

  /// The state after the record on `line`: from the nearest checkpoint or kept state at or
  /// before it, the lines after applied.
  private func state(afterLine line: Int) -> JSONValue? {
    let found = Self.count(of: checkpointLines, below: line + 1)
    // Before the first checkpoint the log does not tell the state.
    guard found > 0, let checkpoint = checkpoints[checkpointLines[found - 1]] else { return nil }
    let checkpointLine = checkpointLines[found - 1]
    var start = (
      line: checkpointLine, state: Optional(checkpoint.state),
      lastSequence: checkpoint.sequence > 0 ? Optional(checkpoint.sequence) : nil
    )
    var kept = line - line % Self.savedStateInterval
    while kept > checkpointLine {
      if let saved = decoded.state(afterLine: kept) {
        start = (kept, saved.state, saved.lastSequence)
        break
      }
      kept -= Self.savedStateInterval
    }
    var scanner = LogScanner(
      resumingAtLine: start.line + 2, after: start.lastSequence, version: formatVersion)
    var tracker = StateTracker(state: start.state)
    let damage = walk(
      (start.line + 1)..<(line + 1), scanner: &scanner, tracker: &tracker
    ) { _, _ throws(LogDamage) in true }
    return damage == nil ? tracker.state : nil
  }

  /// Visits every record with the state after it, in order, until `visit` returns `false`.
  ///
  /// - Returns: The damage that stopped the visit, if any did.
  /// - Complexity: O(size of the log): each line is read again, a block at a time.
  package func scan(
    _ visit: (LogRecord, _ state: JSONValue?) throws(LogDamage) -> Bool
  ) -> LogDamage? {
    var scanner = LogScanner()
    var tracker = StateTracker()
    return walk(0..<lineCount, scanner: &scanner, tracker: &tracker, visit) ?? damage
  }

  /// The line of the last checkpoint that holds the state after entry `sequence` or an entry
  /// before it (0: before the first entry), among the lines read.
  ///
  /// - Complexity: O(log n) in the checkpoints.
  package func lastCheckpoint(atOrBefore sequence: Int) -> Int? {
    let position = checkpointLines.partitioningIndex { line in
      (checkpoints[line]?.sequence ?? .max) > sequence
    }
    guard position > 0, checkpointLines[position - 1] < lineCount else { return nil }
    return checkpointLines[position - 1]
  }

  /// Visits the checkpoint on `line`, then every record after it with the state after it, in
  /// order, until `visit` returns `false`: the lines before the checkpoint are not read.
  ///
  /// - Returns: The damage that stopped the visit, if any did.
  /// - Complexity: O(size of the lines visited): each is read again, a block at a time.
  package func scan(
    fromCheckpointOnLine line: Int,
    _ visit: (LogRecord, _ state: JSONValue?) throws(LogDamage) -> Bool
  ) -> LogDamage? {
    guard let checkpoint = checkpoints[line] else { return nil }
    do throws(LogDamage) {
      let record = LogRecord.checkpoint(
        sequence: checkpoint.sequence, line: line + 1, state: checkpoint.state)
      if try !visit(record, checkpoint.state) { return nil }
    } catch {
      return error
    }
    var scanner = LogScanner(
      resumingAtLine: line + 2, after: checkpoint.sequence > 0 ? checkpoint.sequence : nil,
      version: formatVersion)
    var tracker = StateTracker(state: checkpoint.state)
    return walk((line + 1)..<lineCount, scanner: &scanner, tracker: &tracker, visit)
  }

  /// Reads the lines `range` again in order with `scanner`, following the state with
  /// `tracker` and keeping it after every ``savedStateInterval``-th line, and visits each
  /// record until `visit` returns `false`.
  ///
  /// - Returns: The damage found, which is also kept as the log's.
  /// - Complexity: O(bytes of the lines): read a block of about ``LineIndex/chunkBytes`` at a
  ///   time.
  private func walk(
    _ range: Range<Int>, scanner: inout LogScanner, tracker: inout StateTracker,
    _ visit: (LogRecord, _ state: JSONValue?) throws(LogDamage) -> Bool
  ) -> LogDamage? {
    var first = range.lowerBound
    var block: [UInt8] = []
    do throws(LogDamage) {
      while first < range.upperBound {
        guard let start = index.range(ofLine: first)?.lowerBound else { break }
        var last = first
        while last + 1 < range.upperBound,
          let end = index.range(ofLine: last + 1)?.upperBound,
          end - start <= LineIndex.chunkBytes
        {
          last += 1
        }
        guard let end = index.range(ofLine: last)?.upperBound else { break }
        let read = try lines.read(at: start, count: end - start, into: &block)
        guard read == end - start else {
          throw LogDamage(line: 0, reason: "the log is shorter than when it was read")
        }
        for line in first...last {
          guard let bytes = index.range(ofLine: line) else { break }
          let record = try scanner.read(
            block, (bytes.lowerBound - start)..<(bytes.upperBound - start))
          guard let record else { continue }
          try tracker.apply(record)
          if line % Self.savedStateInterval == 0 {
            decoded.keep(
              SavedState(state: tracker.state, lastSequence: scanner.lastSequenceRead),
              afterLine: line)
          }
          if try !visit(record, tracker.state) { return nil }
        }
        first = last + 1
      }
    } catch {
      if error.line > 0 { decoded.found(error) }
      return error
    }
    return nil
  }
}

/// The state after a line, kept so that states near it are found quickly.
struct SavedState: Sendable {
  /// The state, `nil` when the log does not tell it there.
  var state: JSONValue?
  /// The `seq` of the last entry up to the line.
  var lastSequence: Int?
}

/// What an index decoded from its lines after reading them: the last entries read (once
/// ``SessionIndex/cachedEntryLimit`` are kept, the next one starts them afresh), the states
/// kept, and the first damage found.
final class DecodedLines: Sendable {
  private struct Contents {
    var entries: [Int: InspectedEntry] = [:]
    var states: [Int: SavedState] = [:]
    var damage: LogDamage?
  }

  private let contents = Mutex(Contents())

  var entryCount: Int { contents.withLock { $0.entries.count } }

  var damage: LogDamage? { contents.withLock { $0.damage } }

  func entry(onLine line: Int) -> InspectedEntry? {
    contents.withLock { $0.entries[line] }
  }

  func insert(_ entry: InspectedEntry, onLine line: Int) {
    contents.withLock { contents in
      if contents.entries.count >= SessionIndex.cachedEntryLimit {
        contents.entries.removeAll(keepingCapacity: true)
      }
      contents.entries[line] = entry
    }
  }

  func state(afterLine line: Int) -> SavedState? {
    contents.withLock { $0.states[line] }
  }

  func keep(_ state: SavedState, afterLine line: Int) {
    contents.withLock { $0.states[line] = state }
  }

  /// Keeps `damage` when it comes before any found so far.
  func found(_ damage: LogDamage) {
    contents.withLock { contents in
      if contents.damage.map({ damage.line < $0.line }) ?? true { contents.damage = damage }
    }
  }
}

extension Array where Element == Int {
  /// The first position whose element `belongs`, in an array where every element that belongs
  /// comes after every one that does not.
  ///
  /// - Complexity: O(log n).
  func partitioningIndex(where belongs: (Int) -> Bool) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = low + (high - low) / 2
      if belongs(self[middle]) { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
