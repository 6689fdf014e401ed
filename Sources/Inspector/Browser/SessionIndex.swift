import ActionLog

/// The records of a log as the terminal interface holds them: every record in order, and the
/// state after any of them at hand without keeping every state.
///
/// The state after every ``savedStateInterval``-th record is kept; the state after any other
/// record is found by applying the few records after the nearest kept one, the way the log was
/// read (``StateTracker``). Records are appended as they are read, so a log that is still being
/// written grows the index.
package struct SessionIndex: Sendable {
  /// How many records apart the kept states are.
  package static let savedStateInterval = 64

  /// Every record read, in the order of the log.
  package private(set) var records: [LogRecord] = []
  /// The positions in ``records`` of the entries, in order.
  package private(set) var entryPositions: [Int] = []
  /// What stopped the reading, if anything did.
  package var damage: LogDamage?
  /// How much of a log read whole has been read so far; `nil` once it is read, and for a log
  /// that is followed.
  package var progress: ReadingProgress?
  /// The state after each record at a position that is a multiple of the interval.
  private var savedStates: [Int: JSONValue] = [:]

  /// Creates an empty index.
  package init() {}

  /// The number of entries.
  package var entryCount: Int { entryPositions.count }

  /// Adds the next record of the log, with the state after it as the reader found it.
  ///
  /// - Complexity: Amortised O(1).
  package mutating func append(_ record: LogRecord, state: JSONValue?) {
    let position = records.count
    records.append(record)
    if case .entry = record { entryPositions.append(position) }
    if position % Self.savedStateInterval == 0, let state { savedStates[position] = state }
  }

  /// The entry at `index` among the entries (not its `seq`).
  package func entry(_ index: Int) -> InspectedEntry? {
    guard entryPositions.indices.contains(index),
      case .entry(let entry) = records[entryPositions[index]]
    else { return nil }
    return entry
  }

  /// The index among the entries of the entry with `seq` `sequence`.
  ///
  /// - Complexity: O(log n): the entries are in `seq` order.
  package func entryIndex(sequence: Int) -> Int? {
    var low = 0
    var high = entryPositions.count - 1
    while low <= high {
      let middle = low + (high - low) / 2
      guard let entry = entry(middle) else { return nil }
      if entry.sequence == sequence { return middle }
      if entry.sequence < sequence { low = middle + 1 } else { high = middle - 1 }
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
    guard let first = records.first, case .checkpoint(0, _, let state) = first else { return nil }
    return state
  }

  /// The state after the record at `position`.
  private func state(afterRecord position: Int) -> JSONValue? {
    let start = position - position % Self.savedStateInterval
    // No kept state there means the log did not hold it: that is where the tracker was then.
    var tracker = StateTracker(state: savedStates[start])
    for record in records[(start + 1)..<(position + 1)] {
      // Every record was applied once already, when it was read, so this cannot fail.
      do { try tracker.apply(record) } catch { return nil }
    }
    return tracker.state
  }

  /// Visits every record with the state after it, in order, until `visit` returns `false`.
  ///
  /// - Complexity: O(size of the records).
  package func scan(
    _ visit: (LogRecord, _ state: JSONValue?) throws(LogDamage) -> Bool
  ) -> LogDamage? {
    var tracker = StateTracker()
    do throws(LogDamage) {
      for record in records {
        try tracker.apply(record)
        if try !visit(record, tracker.state) { return nil }
      }
    } catch {
      return error
    }
    return damage
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
