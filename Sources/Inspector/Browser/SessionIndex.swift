import ActionLog
import Foundation
import Synchronization

/// The records of a log as the terminal interface holds them: every record in order, and the
/// state after any of them at hand without keeping every state.
///
/// The state after every ``savedStateInterval``-th record is kept; the state after any other
/// record is found by applying the few records after the nearest kept one, the way the log was
/// read (``StateTracker``). Records are appended as they are read, so a log that is still being
/// written grows the index.
///
/// An index made ``init(rereadingFrom:)`` a file keeps an entry as where its line is, not
/// decoded: an entry is read again from the file when it is shown, and the last
/// ``cachedEntryLimit`` read are kept, so memory does not grow with the entries' payloads and
/// diffs. Checkpoints, few and needed for the states, are kept decoded.
package struct SessionIndex: Sendable {
  /// How many records apart the kept states are.
  package static let savedStateInterval = 64
  /// The most entries read again from the file that are kept decoded.
  package static let cachedEntryLimit = 512

  /// A record as the index keeps it.
  private enum Stored: Sendable {
    /// A record kept decoded.
    case decoded(LogRecord)
    /// An entry kept as its `seq`, its line number and where its line is in the file.
    case entry(sequence: Int, line: Int, bytes: Range<Int>)
  }

  /// Every record read, in the order of the log.
  private var records: [Stored] = []
  /// The positions in `records` of the entries, in order.
  private var entryPositions: [Int] = []
  /// What stopped the reading, if anything did.
  package var damage: LogDamage?
  /// How much of a log read whole has been read so far; `nil` once it is read, and for a log
  /// that is followed.
  package var progress: ReadingProgress?
  /// The state after each record at a position that is a multiple of the interval.
  private var savedStates: [Int: JSONValue] = [:]
  /// The file entries are read again from; `nil` when every record is kept decoded.
  private let lines: LogLines?
  /// The entries last read again, by position in `records`.
  private let cache = EntryCache()

  /// Creates an empty index that keeps every record decoded.
  package init() {
    lines = nil
  }

  /// Creates an empty index that keeps entries as their place in `lines`, and reads them from
  /// it again when asked for.
  package init(rereadingFrom lines: LogLines) {
    self.lines = lines
  }

  /// The number of entries.
  package var entryCount: Int { entryPositions.count }

  /// The number of records: entries and checkpoints.
  package var recordCount: Int { records.count }

  /// The number of entries held decoded: the ones kept decoded, and the ones read again and
  /// cached.
  package var decodedEntryCount: Int {
    (lines == nil ? entryPositions.count : 0) + cache.count
  }

  /// Adds the next record of the log, with the state after it as the reader found it and where
  /// its line is in the file.
  ///
  /// - Complexity: Amortised O(1).
  package mutating func append(_ record: LogRecord, state: JSONValue?, at bytes: Range<Int>? = nil)
  {
    let position = records.count
    switch record {
    case .entry(let entry):
      entryPositions.append(position)
      if lines != nil, let bytes {
        records.append(.entry(sequence: entry.sequence, line: entry.line, bytes: bytes))
      } else {
        records.append(.decoded(record))
      }
    case .checkpoint: records.append(.decoded(record))
    }
    if position % Self.savedStateInterval == 0, let state { savedStates[position] = state }
  }

  /// The record at `position`, read again from the file when it is not kept decoded.
  private func record(at position: Int) -> LogRecord? {
    guard records.indices.contains(position) else { return nil }
    switch records[position] {
    case .decoded(let record): return record
    case .entry(_, let line, let bytes):
      if let cached = cache.entry(at: position) { return .entry(cached) }
      guard let record = lines?.record(onLine: line, at: bytes), case .entry(let entry) = record
      else { return nil }
      cache.insert(entry, at: position)
      return record
    }
  }

  /// The entry at `index` among the entries (not its `seq`).
  ///
  /// - Complexity: O(length of its line) when it is read again from the file.
  package func entry(_ index: Int) -> InspectedEntry? {
    guard entryPositions.indices.contains(index),
      case .entry(let entry) = record(at: entryPositions[index])
    else { return nil }
    return entry
  }

  /// The `seq` of the entry at `index` among the entries, without reading it again.
  private func sequence(ofEntry index: Int) -> Int? {
    guard entryPositions.indices.contains(index) else { return nil }
    switch records[entryPositions[index]] {
    case .entry(let sequence, _, _): return sequence
    case .decoded(.entry(let entry)): return entry.sequence
    case .decoded(.checkpoint): return nil
    }
  }

  /// The index among the entries of the entry with `seq` `sequence`.
  ///
  /// - Complexity: O(log n): the entries are in `seq` order.
  package func entryIndex(sequence: Int) -> Int? {
    var low = 0
    var high = entryPositions.count - 1
    while low <= high {
      let middle = low + (high - low) / 2
      guard let found = self.sequence(ofEntry: middle) else { return nil }
      if found == sequence { return middle }
      if found < sequence { low = middle + 1 } else { high = middle - 1 }
    }
    return nil
  }

  /// The state after the entry at `index` among the entries, `nil` when the log does not hold
  /// it.
  ///
  /// - Complexity: O(``savedStateInterval`` records) plus a copy of the state.
  package func state(afterEntry index: Int) -> JSONValue? {
    guard entryPositions.indices.contains(index) else { return nil }
    return state(afterRecord: entryPositions[index])
  }

  /// The state before the first entry: the checkpoint 0, when the log has one.
  package var initialState: JSONValue? {
    guard let first = records.first, case .decoded(.checkpoint(0, _, let state)) = first else {
      return nil
    }
    return state
  }

  /// The state after the record at `position`.
  private func state(afterRecord position: Int) -> JSONValue? {
    let start = position - position % Self.savedStateInterval
    // No kept state there means the log did not hold it: that is where the tracker was then.
    var tracker = StateTracker(state: savedStates[start])
    for next in (start + 1)..<(position + 1) {
      // Every record was applied once already, when it was read, so this cannot fail.
      guard let record = record(at: next) else { return nil }
      do { try tracker.apply(record) } catch { return nil }
    }
    return tracker.state
  }

  /// Visits every record with the state after it, in order, until `visit` returns `false`.
  ///
  /// - Complexity: O(size of the records); records not kept decoded are read again one at a
  ///   time.
  package func scan(
    _ visit: (LogRecord, _ state: JSONValue?) throws(LogDamage) -> Bool
  ) -> LogDamage? {
    var tracker = StateTracker()
    do throws(LogDamage) {
      for position in records.indices {
        guard let record = record(at: position) else { break }
        try tracker.apply(record)
        if try !visit(record, tracker.state) { return nil }
      }
    } catch {
      return error
    }
    return damage
  }
}

/// The entries an index read again from its file, kept while there are few: once
/// ``SessionIndex/cachedEntryLimit`` are kept, the next one read starts the cache afresh.
private final class EntryCache: Sendable {
  private let entries = Mutex<[Int: InspectedEntry]>([:])

  var count: Int { entries.withLock { $0.count } }

  func entry(at position: Int) -> InspectedEntry? {
    entries.withLock { $0[position] }
  }

  func insert(_ entry: InspectedEntry, at position: Int) {
    entries.withLock { entries in
      if entries.count >= SessionIndex.cachedEntryLimit { entries.removeAll(keepingCapacity: true) }
      entries[position] = entry
    }
  }
}

/// A log file's lines read again one at a time, by where they are in the file.
package final class LogLines: Sendable {
  private let descriptor: Int32

  /// Opens the file at `path` for reading.
  ///
  /// - Throws: ``LogTail/Failure/unreadable(_:)`` naming it when it cannot be opened.
  package init(path: String) throws(LogTail.Failure) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .unreadable("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// The record on line `line`, whose bytes are `bytes`; `nil` when they cannot be read or
  /// decoded again (the file changed).
  ///
  /// - Complexity: O(length of the line).
  func record(onLine line: Int, at bytes: Range<Int>) -> LogRecord? {
    guard bytes.count <= LogScanner.maximumLineLength else { return nil }
    var buffer = [UInt8](repeating: 0, count: bytes.count)
    var filled = 0
    while filled < bytes.count {
      let read = buffer.withUnsafeMutableBytes { raw -> Int in
        guard let base = raw.baseAddress else { return 0 }
        return pread(
          descriptor, base + filled, bytes.count - filled, off_t(bytes.lowerBound + filled))
      }
      if read < 0, errno == EINTR { continue }
      guard read > 0 else { return nil }
      filled += read
    }
    var scanner = LogScanner(rereadingLine: line)
    return try? scanner.read(buffer, buffer.indices)
  }
}

/// How much of a log the terminal interface has read: it reads a large log a chunk between two
/// frames at a time, so its first screen shows before the log is read whole.
package struct ReadingProgress: Equatable, Sendable {
  /// The bytes read so far.
  package var bytesRead: Int
  /// The size of the file when it was opened.
  package var fileSize: Int

  /// Creates the progress of `bytesRead` bytes out of `fileSize`.
  package init(bytesRead: Int, fileSize: Int) {
    self.bytesRead = bytesRead
    self.fileSize = fileSize
  }

  /// The whole per cent read, from 0 to 100.
  package var percent: Int {
    guard fileSize > 0 else { return 100 }
    return Int(min(100, (Double(bytesRead) * 100 / Double(fileSize)).rounded(.down)))
  }
}
