import ActionLog
import Foundation
import StatePersistence

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
/// A change either is durable when ``withExclusiveAccess(_:)`` returns, or the journal is cut
/// back to its previous length before the error is thrown, so the store holds what it held
/// before. Only when even that cut fails is the error
/// ``StorageError/uncertain(cause:rollback:)``: the store holds all of the change or none of
/// it. A snapshot is an optimisation: one that cannot be written never fails a change whose
/// entry is durable, and a later change tries again.
///
/// A last journal line without its newline is a change whose command never finished (the process
/// died while writing), and so is a last line of NUL bytes, with or without its newline (a power
/// cut after the file grew but before its data reached the disk): readers ignore it and the next
/// writer cuts it off. Any other damage is reported as
/// ``StorageError/damaged(path:line:reason:)`` and nothing is written.
///
/// Files are created with mode 0600 and directories with 0700; existing files keep their modes.
struct FileTodoStorage: TodoStorage {
  let directory: String
  /// How many journal entries may follow the snapshot before a writer refreshes it.
  let compactionInterval: Int
  /// The calls that reach the disk.
  let system: any SystemCalls
  /// Told, with the directory, when the lock has been waited for about a second.
  let announceLockWait: (@Sendable (String) -> Void)?

  /// Creates the storage for `directory`, which is created by the first change.
  init(directory: String, compactionInterval: Int = 200) {
    self.init(directory: directory, compactionInterval: compactionInterval, system: POSIXCalls())
  }

  /// Creates the storage for `directory` on `system`'s calls.
  init(
    directory: String, compactionInterval: Int = 200, system: any SystemCalls,
    announceLockWait: (@Sendable (String) -> Void)? = nil
  ) {
    self.directory =
      directory.count > 1 && directory.hasSuffix("/")
      ? String(directory.dropLast()) : directory
    self.compactionInterval = max(1, compactionInterval)
    self.system = system
    self.announceLockWait = announceLockWait
  }

  /// This storage, calling `announce` with the directory when a command has waited about a
  /// second for another process's lock.
  func announcingLockWait(_ announce: @escaping @Sendable (String) -> Void) -> FileTodoStorage {
    FileTodoStorage(
      directory: directory, compactionInterval: compactionInterval, system: system,
      announceLockWait: announce)
  }

  /// The journal's size and modification time, and the snapshot's: every change appends to the
  /// journal, so another process's change shows here without reading the store.
  ///
  /// The terminal UI polls it a few times a second to show what other processes stored.
  func modificationStamp() -> StorageStamp? {
    var parts: [Int] = []
    for path in [journalPath, snapshotPath] {
      var info = stat()
      guard stat(path, &info) == 0 else {
        parts += [-1, -1, -1]
        continue
      }
      parts += [Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    }
    return StorageStamp(parts: parts)
  }

  /// The file operations on ``system``'s calls.
  ///
  /// The store's directory may be a symbolic link (a store kept elsewhere); nothing inside it
  /// is followed.
  var files: FileAccess { FileAccess(system: system, followsDirectoryLinks: true) }

  var journalPath: String { directory + "/journal.jsonl" }
  var snapshotPath: String { directory + "/snapshot" }
  var lockPath: String { directory + "/lock" }

  /// The latest stored state, read under a shared lock; an empty list if nothing is stored.
  ///
  /// A file of the store that is there but cannot be opened or read (for any `errno`, `ENOENT`
  /// included) throws: a failed read never passes for an empty store.
  ///
  /// - Complexity: O(todos + entries since the snapshot).
  func load() throws -> AppState {
    guard exists(directory) else { return AppState() }
    let lock = try openLock(create: false)
    try lock.map { lock throws(StorageError) in try take(lock, exclusive: false) }
    return try read().state
  }

  /// Every journaled change, oldest first, read under a shared lock.
  ///
  /// - Complexity: O(journal length).
  func history() throws -> [JournalEntry] {
    guard exists(directory) else { return [] }
    let lock = try openLock(create: false)
    try lock.map { lock throws(StorageError) in try take(lock, exclusive: false) }
    let loaded = try read()
    guard loaded.journalEnd > 0, let journal = try openIfPresent(journalPath) else { return [] }
    let bytes = try StorageError.translating { () throws(PersistenceError) in
      try journal.read(from: 0, count: loaded.journalEnd)
    }
    let decoder = JSONDecoder()
    let (lines, _) = JSONLines.split(bytes)
    return try lines.dropFirst().enumerated().map { index, range throws(StorageError) in
      try JournalCodec.decodeEntry(
        bytes[range], decoder: decoder, path: journalPath, number: index + 2)
    }
  }

  /// Runs `body` under the exclusive lock with the latest stored state.
  @discardableResult
  func withExclusiveAccess<R: Sendable>(
    _ body: (any StorageTransaction) async throws -> R
  ) async throws -> R {
    if !exists(directory) {
      try StorageError.translating { () throws(PersistenceError) in
        try files.createDirectory(directory)
      }
    }
    guard let lock = try openLock(create: true) else {
      throw StorageError.systemCall(
        operation: "open", path: lockPath, reason: "the lock file vanished")
    }
    try take(lock, exclusive: true)
    // Closing the file releases the lock too, so a failed unlock loses nothing.
    defer { try? lock.lock(LOCK_UN) }
    let transaction = FileTransaction(storage: self, loaded: try read())
    return try await body(transaction)
  }

  private func openLock(create: Bool) throws(StorageError) -> OpenFile? {
    if create {
      return try StorageError.translating { () throws(PersistenceError) in
        try OpenFile(lockPath, flags: O_RDWR | O_CREAT, system: system)
      }
    }
    // A store that was never written to has no lock file, and nothing to protect.
    return try openIfPresent(lockPath)
  }

  private func take(_ lock: OpenFile, exclusive: Bool) throws(StorageError) {
    let directory = directory
    try StorageError.translating { () throws(PersistenceError) in
      try lock.lock(
        exclusive: exclusive,
        announceWait: announceLockWait.map { announce in { announce(directory) } })
    }
  }

  /// Opens the store's file at `path` read-only, or returns `nil` if it does not exist.
  ///
  /// An `open` that fails with `ENOENT` while the file is there (a failing disk or file system,
  /// or an injected fault) is an error like any other: reading on as if the file were absent
  /// would show a store that holds todos as an empty one, and a writer would start a new
  /// journal over the old one.
  private func openIfPresent(_ path: String) throws(StorageError) -> OpenFile? {
    do {
      return try OpenFile(path, flags: O_RDONLY, system: system)
    } catch .systemCall(_, _, let code) where code == ENOENT && isAbsent(path) {
      return nil
    } catch {
      throw StorageError(error)
    }
  }

  /// What a read found on disk.
  struct Loaded {
    var state: AppState
    /// The last complete entry's `seq`.
    var seq: Int
    /// The journal's length up to the end of its last complete line; 0 without a journal.
    var journalEnd: Int
    /// The journal file's length, which exceeds `journalEnd` by a torn tail's bytes.
    var journalSize: Int
    /// The `seq` the snapshot covers.
    var snapshotSeq: Int
  }

  /// Reads the snapshot and the journal entries after it; the caller holds a lock.
  ///
  /// - Complexity: O(todos + entries since the snapshot).
  func read() throws(StorageError) -> Loaded {
    var snapshot = Snapshot(state: AppState(), seq: 0, offset: 0)
    if let file = try openIfPresent(snapshotPath) {
      snapshot = try SnapshotCodec.decode(try readToEnd(file), path: snapshotPath)
    }
    guard let journal = try openIfPresent(journalPath) else {
      guard snapshot.seq == 0 else {
        throw .damaged(
          path: journalPath, line: nil,
          reason: "the journal is missing but the snapshot covers \(snapshot.seq) entries")
      }
      return Loaded(
        state: snapshot.state, seq: 0, journalEnd: 0, journalSize: 0, snapshotSeq: 0)
    }
    let size = try StorageError.translating { () throws(PersistenceError) in try journal.size() }
    let headerEnd = try validateHeader(of: journal, size: size)
    guard let headerEnd else {
      // The process that created the journal died before its header was complete.
      guard snapshot.seq == 0 else {
        throw .damaged(path: journalPath, line: 1, reason: "the header is cut short")
      }
      return Loaded(
        state: snapshot.state, seq: 0, journalEnd: 0, journalSize: size, snapshotSeq: 0)
    }
    let start = max(snapshot.offset, headerEnd)
    guard size >= start else {
      throw .damaged(
        path: journalPath, line: nil,
        reason: "the journal has \(size) bytes but the snapshot says it has at least \(start)")
    }
    // start >= headerEnd >= 1 and size >= start, so neither subtraction can overflow.
    let bytes = try StorageError.translating { () throws(PersistenceError) in
      try journal.read(from: start - 1, count: size - start + 1)
    }
    guard bytes.first == 0x0A else {
      throw .damaged(
        path: snapshotPath, line: 2,
        reason: "its journal offset \(start) is not at the end of a journal line")
    }
    let lines = JSONLines.readable(bytes, from: 1).lines
    var state = snapshot.state
    var seq = snapshot.seq
    let decoder = JSONDecoder()
    for range in lines {
      let (next, overflow) = seq.addingReportingOverflow(1)
      // Line n holds entry n - 1, after the header.
      let number = overflow ? Int.max : next.addingReportingOverflow(1).partialValue
      let entry = try JournalCodec.decodeEntry(
        bytes[range], decoder: decoder, path: journalPath, number: number)
      guard !overflow, entry.seq == next else {
        throw .damaged(
          path: journalPath, line: number,
          reason: overflow
            ? "an entry follows entry \(seq), the last number an entry can have"
            : "expected entry \(next) but found entry \(entry.seq)")
      }
      entry.change.apply(to: &state)
      seq = entry.seq
    }
    let end = start - 1 + (lines.last.map { $0.upperBound + 1 } ?? 1)
    return Loaded(
      state: state, seq: seq, journalEnd: end, journalSize: size, snapshotSeq: snapshot.seq)
  }

  /// Checks the journal's first line and returns the offset just past it, or `nil` if the file
  /// holds only the beginning of a header (the process creating it died) or only NUL bytes (a
  /// power cut hit its first write).
  private func validateHeader(of journal: OpenFile, size: Int) throws(StorageError) -> Int? {
    let prefix = try StorageError.translating { () throws(PersistenceError) in
      try journal.read(from: 0, count: min(size, 4096))
    }
    guard let newline = prefix.firstIndex(of: 0x0A) else {
      if JournalCodec.header.utf8.starts(with: prefix) { return nil }
      if try isOnlyNUL(journal, from: 0) { return nil }
      throw .damaged(path: journalPath, line: 1, reason: "the first line is not a valid header")
    }
    if JSONLines.isNULLine(prefix[..<newline]), try isOnlyNUL(journal, from: newline + 1) {
      return nil
    }
    try JournalCodec.validateHeader(prefix[..<newline], path: journalPath)
    return newline + 1
  }

  /// Whether the journal holds only NUL bytes from `offset` on.
  ///
  /// - Complexity: O(file size − offset).
  private func isOnlyNUL(_ journal: OpenFile, from offset: Int) throws(StorageError) -> Bool {
    try readToEnd(journal, from: offset).allSatisfy { $0 == 0 }
  }

  /// Reads `file` from `offset` to its end.
  ///
  /// - Complexity: O(file size − offset).
  private func readToEnd(_ file: OpenFile, from offset: Int = 0) throws(StorageError) -> [UInt8] {
    try StorageError.translating { () throws(PersistenceError) in
      try file.read(from: offset, count: max(0, try file.size() - offset))
    }
  }

  /// Appends entries for a transaction that holds the exclusive lock, durably, or leaves the
  /// journal as it was.
  ///
  /// A torn tail is cut off first; if that fails, the error is thrown with nothing changed. The
  /// entries (after a header, for a new journal) then go in one `write` at the end of the last
  /// complete line, followed by `fsync`. If either fails, the journal is cut back to that
  /// length and synchronized before the error is thrown; if that fails too, the error is
  /// ``StorageError/uncertain(cause:rollback:)``. A snapshot is
  /// written afterwards when due; its failure is not the change's.
  fileprivate func append(_ entries: [JournalEntry], after loaded: inout Loaded)
    throws(StorageError)
  {
    let start = loaded.journalEnd
    var bytes: [UInt8] = []
    if start == 0 {
      // A new journal, or one whose header was cut short: the header comes first.
      bytes = Array((JournalCodec.header + "\n").utf8)
    }
    bytes += try JournalCodec.encode(entries)
    let (end, overflow) = start.addingReportingOverflow(bytes.count)
    guard !overflow else {
      throw .damaged(path: journalPath, line: nil, reason: "the journal cannot grow any longer")
    }
    let existed = exists(journalPath)
    let journal = try StorageError.translating { () throws(PersistenceError) in
      let journal = try OpenFile(journalPath, flags: O_RDWR | O_CREAT, system: system)
      // A torn tail is cut off before anything is written: if the cut fails, readers still
      // ignore the tail and nothing has changed, so there is nothing to roll back (and no
      // rollback that could fail and leave the change in doubt).
      if loaded.journalSize > start { try journal.truncate(to: start) }
      return journal
    }
    do throws(PersistenceError) {
      try journal.write(bytes, at: start)
      try journal.synchronize()
      // A new journal's name must reach the disk too before the change counts as saved.
      if start == 0 { try files.synchronizeDirectory(directory) }
    } catch {
      try rollBack(journal, to: start, removing: !existed, after: StorageError(error))
    }
    loaded.journalEnd = end
    loaded.journalSize = end
    for entry in entries { entry.change.apply(to: &loaded.state) }
    loaded.seq = entries.last?.seq ?? loaded.seq
    let (pending, distant) = loaded.seq.subtractingReportingOverflow(loaded.snapshotSeq)
    guard distant || pending >= compactionInterval else { return }
    let snapshot = Snapshot(state: loaded.state, seq: loaded.seq, offset: loaded.journalEnd)
    do {
      try files.replaceAtomically(snapshotPath, with: SnapshotCodec.encode(snapshot), in: directory)
      loaded.snapshotSeq = loaded.seq
    } catch {
      // The change is durable in the journal and the old snapshot is still valid; the next
      // change finds the snapshot still due and tries again.
      return
    }
  }

  /// Cuts the journal back to `length` after `failure`, then throws `failure`, or
  /// ``StorageError/uncertain(cause:rollback:)`` if the cut fails.
  private func rollBack(
    _ journal: OpenFile, to length: Int, removing created: Bool, after failure: StorageError
  ) throws(StorageError) -> Never {
    do throws(PersistenceError) {
      try journal.truncate(to: length)
      try journal.synchronize()
    } catch {
      throw failure.uncertain(rollback: StorageError(error))
    }
    // An empty journal reads as an empty store, so a failed removal changes nothing.
    if created { try? system.unlink(journalPath) }
    throw failure
  }

  /// Finds the entry `undo` reverts next, reading the journal backwards.
  fileprivate func lastUndoableEntry(journalEnd: Int) throws(StorageError) -> JournalEntry? {
    guard journalEnd > 0, let journal = try openIfPresent(journalPath) else { return nil }
    let bytes = try StorageError.translating { () throws(PersistenceError) in
      try journal.read(from: 0, count: journalEnd)
    }
    let (lines, _) = JSONLines.split(bytes)
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
    var entries: [JournalEntry] = []
    var seq = loaded.seq
    for draft in drafts {
      // Entries are numbered below Int.max, the range the journal's reader accepts.
      guard seq < Int.max - 1 else {
        throw StorageError.damaged(
          path: storage.journalPath, line: nil,
          reason: "entry \(seq) is the last number an entry can have; no change can follow it")
      }
      seq += 1
      entries.append(JournalEntry(seq: seq, draft: draft))
    }
    try storage.append(entries, after: &loaded)
    return entries
  }
}

/// Whether something exists at `path`, asked of the operating system directly.
private func exists(_ path: String) -> Bool {
  access(path, F_OK) == 0
}

/// Whether `path` is known to name nothing: `lstat` finds no entry (a symbolic link is an
/// entry, whatever it points at).
///
/// Asked of the operating system directly, never through a test's calls: it is how the store
/// tells a file that is absent from one whose `open` failed with `ENOENT`.
private func isAbsent(_ path: String) -> Bool {
  var info = stat()
  return lstat(path, &info) != 0 && errno == ENOENT
}
