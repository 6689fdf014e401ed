import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The todo store on disk: an append-only journal plus a compacted snapshot, in one directory.
///
/// - `journal.jsonl` is an action log of every change, in order, each with its inverse for
///   `undo`. A command appends its entries with one `write` followed by `fsync`, so a change is
///   durable when the command returns.
/// - `snapshot` holds the state as of some journal entry, written atomically every
///   ``compactionInterval`` entries, so loading reads it and the few entries after it.
/// - `lock` is taken with `flock`: shared to read, exclusive to change; concurrent processes
///   queue.
///
/// A last journal line without its newline is a change whose command never finished (the process
/// died while writing): readers ignore it and the next writer cuts it off. Any other damage is
/// reported as ``StorageError/damaged(path:line:reason:)`` and nothing is written.
public struct FileTodoStorage: TodoStorage {
  /// The store's directory.
  public let directory: String
  /// How many journal entries may follow the snapshot before a writer refreshes it.
  public let compactionInterval: Int

  /// Creates the storage for `directory`, which is created by the first change.
  public init(directory: String, compactionInterval: Int = 200) {
    self.directory =
      directory.count > 1 && directory.hasSuffix("/")
      ? String(directory.dropLast()) : directory
    self.compactionInterval = max(1, compactionInterval)
  }

  var journalPath: String { directory + "/journal.jsonl" }
  var snapshotPath: String { directory + "/snapshot" }
  var lockPath: String { directory + "/lock" }

  /// The latest stored state, read under a shared lock; an empty list if nothing is stored.
  ///
  /// - Complexity: O(todos + entries since the snapshot).
  public func load() throws -> AppState {
    guard FileSystem.exists(directory) else { return AppState() }
    let lock = try openLock(create: false)
    try lock?.lock(exclusive: false)
    return try read().state
  }

  /// Every journaled change, oldest first, read under a shared lock.
  ///
  /// - Complexity: O(journal length).
  public func history() throws -> [JournalEntry] {
    guard FileSystem.exists(directory) else { return [] }
    let lock = try openLock(create: false)
    try lock?.lock(exclusive: false)
    _ = try read()
    guard let journal = try OpenFile.openIfPresent(path: journalPath) else { return [] }
    let bytes = try journal.readToEnd()
    let decoder = JSONDecoder()
    let (lines, _) = JournalCodec.lines(in: bytes)
    return try lines.dropFirst().enumerated().map { index, range throws(StorageError) in
      try JournalCodec.decodeEntry(
        bytes[range], decoder: decoder, path: journalPath, number: index + 2)
    }
  }

  /// Runs `body` under the exclusive lock with the latest stored state.
  @discardableResult
  public func withExclusiveAccess<R: Sendable>(
    _ body: (any StorageTransaction) async throws -> R
  ) async throws -> R {
    try FileSystem.createDirectory(directory)
    guard let lock = try openLock(create: true) else {
      throw StorageError.systemCall(
        operation: "open", path: lockPath, reason: "the lock file vanished")
    }
    try lock.lock(exclusive: true)
    let transaction = FileTransaction(storage: self, loaded: try read())
    defer { lock.unlock() }
    return try await body(transaction)
  }

  private func openLock(create: Bool) throws(StorageError) -> OpenFile? {
    if create { return try OpenFile(path: lockPath, flags: O_RDWR | O_CREAT) }
    // A store that was never written to has no lock file, and nothing to protect.
    return try OpenFile.openIfPresent(path: lockPath)
  }

  /// What a read found on disk.
  struct Loaded {
    var state: AppState
    /// The last complete entry's `seq`.
    var seq: Int
    /// The journal's length up to the end of its last complete line; 0 without a journal.
    var journalEnd: Int
    /// Whether bytes of an unfinished command follow `journalEnd`.
    var hasTornTail: Bool
    /// The `seq` the snapshot covers.
    var snapshotSeq: Int
  }

  /// Reads the snapshot and the journal entries after it; the caller holds a lock.
  ///
  /// - Complexity: O(todos + entries since the snapshot).
  func read() throws(StorageError) -> Loaded {
    var snapshot = Snapshot(state: AppState(), seq: 0, offset: 0)
    if let file = try OpenFile.openIfPresent(path: snapshotPath) {
      snapshot = try SnapshotCodec.decode(try file.readToEnd(), path: snapshotPath)
    }
    guard let journal = try OpenFile.openIfPresent(path: journalPath) else {
      guard snapshot.seq == 0 else {
        throw .damaged(
          path: journalPath, line: nil,
          reason: "the journal is missing but the snapshot covers \(snapshot.seq) entries")
      }
      return Loaded(
        state: snapshot.state, seq: 0, journalEnd: 0, hasTornTail: false, snapshotSeq: 0)
    }
    let size = try journal.size()
    let headerEnd = try validateHeader(of: journal, size: size)
    guard let headerEnd else {
      // The process that created the journal died before its header was complete.
      guard snapshot.seq == 0 else {
        throw .damaged(path: journalPath, line: 1, reason: "the header is cut short")
      }
      return Loaded(
        state: snapshot.state, seq: 0, journalEnd: 0, hasTornTail: size > 0, snapshotSeq: 0)
    }
    let start = max(snapshot.offset, headerEnd)
    guard size >= start else {
      throw .damaged(
        path: journalPath, line: nil,
        reason: "the journal has \(size) bytes but the snapshot says it has at least \(start)")
    }
    let bytes = try journal.read(from: start - 1, count: size - start + 1)
    guard bytes.first == 0x0A else {
      throw .damaged(
        path: snapshotPath, line: 2,
        reason: "its journal offset \(start) is not at the end of a journal line")
    }
    let (lines, tornStart) = JournalCodec.lines(in: bytes, from: 1)
    var state = snapshot.state
    var seq = snapshot.seq
    let decoder = JSONDecoder()
    for range in lines {
      let number = seq + 2
      let entry = try JournalCodec.decodeEntry(
        bytes[range], decoder: decoder, path: journalPath, number: number)
      guard entry.seq == seq + 1 else {
        throw .damaged(
          path: journalPath, line: number,
          reason: "expected entry \(seq + 1) but found entry \(entry.seq)")
      }
      entry.change.apply(to: &state)
      seq = entry.seq
    }
    let end = start - 1 + (lines.last.map { $0.upperBound + 1 } ?? 1)
    return Loaded(
      state: state, seq: seq, journalEnd: end, hasTornTail: tornStart != nil,
      snapshotSeq: snapshot.seq)
  }

  /// Checks the journal's first line and returns the offset just past it, or `nil` if the file
  /// holds only the beginning of a header (the process creating it died).
  private func validateHeader(of journal: OpenFile, size: Int) throws(StorageError) -> Int? {
    let prefix = try journal.read(from: 0, count: min(size, 4096))
    guard let newline = prefix.firstIndex(of: 0x0A) else {
      if JournalCodec.header.utf8.starts(with: prefix) { return nil }
      throw .damaged(path: journalPath, line: 1, reason: "the first line is not a valid header")
    }
    try JournalCodec.validateHeader(prefix[..<newline], path: journalPath)
    return newline + 1
  }

  /// Appends entries for a transaction that holds the exclusive lock.
  fileprivate func append(_ entries: [JournalEntry], after loaded: inout Loaded)
    throws(StorageError)
  {
    let journal = try OpenFile(path: journalPath, flags: O_RDWR | O_CREAT)
    if loaded.journalEnd == 0 {
      // A new journal, or one whose header was cut short: write the header first.
      try journal.truncate(to: 0)
      try journal.write(Array((JournalCodec.header + "\n").utf8))
      try journal.synchronize()
      try FileSystem.synchronizeDirectory(directory)
      loaded.journalEnd = JournalCodec.header.utf8.count + 1
    } else if loaded.hasTornTail {
      try journal.truncate(to: loaded.journalEnd)
    }
    loaded.hasTornTail = false
    let bytes = try JournalCodec.encode(entries)
    guard lseek(journal.descriptor, off_t(loaded.journalEnd), SEEK_SET) >= 0 else {
      throw OpenFile.error("seek in", journalPath)
    }
    try journal.write(bytes)
    try journal.synchronize()
    loaded.journalEnd += bytes.count
    for entry in entries { entry.change.apply(to: &loaded.state) }
    loaded.seq = entries.last?.seq ?? loaded.seq
    if loaded.seq - loaded.snapshotSeq >= compactionInterval {
      let snapshot = Snapshot(state: loaded.state, seq: loaded.seq, offset: loaded.journalEnd)
      try FileSystem.replaceAtomically(
        snapshotPath, with: SnapshotCodec.encode(snapshot), directory: directory)
      loaded.snapshotSeq = loaded.seq
    }
  }

  /// Finds the entry `undo` reverts next, reading the journal backwards.
  fileprivate func lastUndoableEntry(journalEnd: Int) throws(StorageError) -> JournalEntry? {
    guard journalEnd > 0, let journal = try OpenFile.openIfPresent(path: journalPath) else {
      return nil
    }
    let bytes = try journal.read(from: 0, count: journalEnd)
    let (lines, _) = JournalCodec.lines(in: bytes)
    let decoder = JSONDecoder()
    var scanner = UndoScanner()
    for (index, range) in lines.enumerated().dropFirst().reversed() {
      let entry = try JournalCodec.decodeEntry(
        bytes[range], decoder: decoder, path: journalPath, number: index + 1)
      if let found = scanner.visit(entry) { return found }
    }
    return nil
  }
}

/// Exclusive access to a ``FileTodoStorage``.
private final class FileTransaction: StorageTransaction {
  let storage: FileTodoStorage
  var loaded: FileTodoStorage.Loaded

  init(storage: FileTodoStorage, loaded: FileTodoStorage.Loaded) {
    self.storage = storage
    self.loaded = loaded
  }

  var state: AppState { loaded.state }

  func lastUndoableEntry() throws -> JournalEntry? {
    try storage.lastUndoableEntry(journalEnd: loaded.journalEnd)
  }

  func append(_ drafts: [JournalDraft]) throws -> [JournalEntry] {
    guard !drafts.isEmpty else { return [] }
    let entries = drafts.enumerated().map { offset, draft in
      JournalEntry(
        seq: loaded.seq + offset + 1, change: draft.change, inverse: draft.inverse,
        undoes: draft.undoes)
    }
    try storage.append(entries, after: &loaded)
    return entries
  }
}
