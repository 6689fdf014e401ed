import ActionLog
import Foundation
import StateStore

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An entry of the journal, as read back while catching up with other processes.
struct HeardEntry<S: State>: Sendable {
  let sequence: Int
  let updater: any StateUpdater<S>
  let cause: String?
}

/// What a writer read of the journal when other processes changed it, on its way to the store's
/// actor.
///
/// The writer decodes the entries and applies none of them: the store's actor does, and
/// releases them, as a store releases the application's values (an updater, a state, or a
/// value they replace may have a deinitializer that reaches the store).
@usableFromInline
struct Heard<S: State & Codable>: Sendable {
  /// The journal as read: its snapshot's state (or the initial state) and every entry after it.
  let journal: JournalRecovery<S>.Recovered
  /// The entry the writer had read or written last before: the entries after it are new.
  let known: Int
  /// The last of this store's entries (a `_PendingEntry._number`) in the journal up to
  /// ``sequence``: this store's later entries come after it.
  @usableFromInline let lastNumber: Int

  /// The journal's last entry, as read.
  var sequence: Int { journal.lastSequence }

  /// The entries other processes appended since the writer last read or wrote, in journal
  /// order; `nil` when a snapshot covers some of them, so that only ``journalState()`` tells
  /// what they did.
  var newEntries: ArraySlice<HeardEntry<S>>? {
    journal.snapshotCoversUnheard ? nil : journal.entries.drop { $0.sequence <= known }
  }

  /// The journal's state after its last entry.
  ///
  /// The snapshot's state with every entry after it applied; called on the store's actor.
  ///
  /// - Complexity: O(entries after the snapshot), plus the updaters' own cost.
  func journalState() -> S {
    var state = journal.state
    for entry in journal.entries { entry.updater.updateState(&state) }
    return state
  }
}

// Sharing a directory with other processes: the lock, and reading what they appended.
extension _JournalWriter {
  /// Reads now what other processes appended, under the shared lock, and hands it to the
  /// store's actor; runs on the queue after everything queued before.
  func readOthers() async -> Result<Void, PersistenceError> {
    await WriteQueue(_queue).run { () -> Result<Void, PersistenceError> in
      self.disk.withLock { disk in
        Result { () throws(PersistenceError) in try self.poll(&disk) }
      }
    }
  }

  /// Reads what other processes appended, when the poll's interval is up; a failure is
  /// reported.
  func pollSoon() {
    _queue.async {
      self.disk.withLock { disk in
        do throws(PersistenceError) {
          try self.poll(&disk)
        } catch {
          self.report(error)
        }
      }
    }
  }

  private func poll(_ disk: inout Disk) throws(PersistenceError) {
    // Bytes of this writer's own failed append may follow the journal: read as another
    // process's entries, they would be applied twice. The next append sorts them out. A
    // closed store reads nothing either, and while this store holds the exclusive lock nobody
    // else can have appended (and taking the shared lock would give the exclusive one up).
    guard disk.uncertain == nil, disk.lock != nil, disk.exclusiveHolders == 0 else { return }
    try lockAndCatchUp(exclusively: false, disk: &disk)
    unlock(&disk)
  }

  /// Takes the directory's lock (exclusive to append, shared to read) and reads what other
  /// processes appended since this writer last did; on failure the lock is released again.
  func lockAndCatchUp(exclusively: Bool, disk: inout Disk) throws(PersistenceError) {
    guard let lock = disk.lock else {
      throw .closed(reason: "the journaled store was closed")
    }
    try Self.take(lock, exclusively: exclusively, options: options, directory: layout.directory)
    do throws(PersistenceError) {
      if exclusively && disk.uncertain != nil {
        do throws(PersistenceError) {
          try settleUncertainAppend(&disk)
        } catch {
          // The append in doubt is still in doubt: a flush waiting for it must say so, not
          // report this failure as one that changed nothing (its bytes may be on disk).
          if case .uncertain = error { throw error }
          throw .uncertain(
            cause: "an earlier append could not be cut back", rollback: error.description)
        }
      }
      try catchUp(exclusively: exclusively, disk: &disk)
    } catch {
      unlock(&disk)
      throw error
    }
  }

  /// Takes the directory's exclusive lock and keeps it until ``releaseExclusiveLock()``,
  /// reading first what other processes appended and handing it to the store's actor; runs on
  /// the queue after everything queued before.
  ///
  /// Calls nest: the lock is released when the last holder releases it.
  func holdExclusiveLock() async -> Result<Void, PersistenceError> {
    await WriteQueue(_queue).run { () -> Result<Void, PersistenceError> in
      self.disk.withLock { disk in
        Result { () throws(PersistenceError) in
          try self.lockAndCatchUp(exclusively: true, disk: &disk)
          disk.exclusiveHolders += 1
        }
      }
    }
  }

  /// Takes the directory's `lock`, announcing a long wait through
  /// ``JournalOptions/onLockWait`` when it is set.
  static func take(
    _ lock: OpenFile, exclusively: Bool, options: JournalOptions, directory: String
  ) throws(PersistenceError) {
    if let announce = options.onLockWait {
      try lock.lock(exclusive: exclusively, announceWait: { announce(directory) })
      return
    }
    do {
      try lock.lock(exclusively ? LOCK_EX : LOCK_SH)
    } catch {
      throw .failed("lock", lock.path, error)
    }
  }

  /// Gives up one hold that ``holdExclusiveLock()`` took, releasing the lock after the last.
  func releaseExclusiveLock() async {
    _ = await WriteQueue(_queue).run { () -> Result<Void, PersistenceError> in
      self.disk.withLock { disk in
        disk.exclusiveHolders = max(0, disk.exclusiveHolders - 1)
        self.unlock(&disk)
      }
      return .success(())
    }
  }

  /// Forgets this store's entries numbered `taken`, which a failed write left unwritten: they
  /// will never be written.
  ///
  /// Called only when nothing of them can be on disk (the write was cut back), so the journal
  /// stays exactly as it was. The status is ``PersistenceStatus/saved`` again if nothing else
  /// waits.
  func discard(_ taken: Range<Int>) async {
    _ = await WriteQueue(_queue).run { () -> Result<Void, PersistenceError> in
      // What is forgotten is released after both locks: an updater's or a state's
      // deinitializer is the application's code, and may read `status` (this lock) or anything
      // else of the store's.
      let forgotten = self.disk.withLock { disk in
        let (kept, dropped) = disk.unwritten.partitioned { !taken.contains($0.number) }
        disk.unwritten = kept
        let idle = kept.isEmpty
        let pending = self._shared.withLock { shared in
          let pending = shared._pending
          shared._pending = pending.compactMap { batch in
            let kept = batch.filter { !taken.contains($0._number) }
            return kept.isEmpty ? nil : kept
          }
          if idle, shared._pending.isEmpty, shared._stopped == nil {
            shared._status = .saved
            shared._holdsAfterFailure = false
          }
          return pending
        }
        return (dropped, pending)
      }
      withExtendedLifetime(forgotten) {}
      return .success(())
    }
  }

  /// Releases the directory's lock, unless ``holdExclusiveLock()`` holds it; a failure is
  /// reported (closing the store releases it).
  func unlock(_ disk: inout Disk) {
    guard disk.exclusiveHolders == 0 else { return }
    do {
      try disk.lock?.lock(LOCK_UN)
    } catch {
      report(.failed("unlock", layout.lockPath, error))
    }
  }

  /// Whether another process changed the journal since this writer last read or wrote it: a
  /// segment appeared or went, the last one changed size, or, when this writer appends to no
  /// listed segment, the snapshot covers other entries.
  ///
  /// The snapshot matters when the segment this writer last saw is gone (its own snapshot, or
  /// another process's, removed it) or it saw none: another process may since have appended a
  /// segment and taken a snapshot that removed it again, leaving the list of segments as it was.
  ///
  /// - Complexity: O(files in the directory).
  private func journalChanged(_ disk: Disk) throws(PersistenceError) -> Bool {
    let starts = try files.names(in: layout.directory).compactMap(JournalLayout.segmentStart)
    guard starts.sorted() == disk.segments else { return true }
    if let segment = disk.segment, starts.contains(segment.first) {
      return try segment.file.size() != segment.knownSize
    }
    return try snapshotSequenceOnDisk() != disk.snapshotSequence
  }

  /// The entry the directory's snapshot covers, read from its first line; 0 without a snapshot,
  /// and -1 when the line does not read (the reread that follows reports the damage).
  ///
  /// - Complexity: O(1): one short read.
  private func snapshotSequenceOnDisk() throws(PersistenceError) -> Int {
    let file: OpenFile
    do {
      file = try OpenFile(layout.snapshotPath, flags: O_RDONLY, system: files.system)
    } catch .systemCall(_, _, let code) where code == ENOENT {
      return 0
    }
    defer { try? file.close() }
    let prefix = try file.read(from: 0, count: min(try file.size(), 512))
    guard let newline = prefix.firstIndex(of: 0x0A),
      let header = try? JSONDecoder().decode(
        SnapshotCodec.Header.self, from: Data(prefix[..<newline]))
    else { return -1 }
    return header.seq
  }

  /// Rereads the journal if another process changed it, adopts its last segment, and hands
  /// what the others appended to the store's actor.
  ///
  /// The journal is read whole, from the snapshot, as an open reads it: its state is what a
  /// store whose own entries come later must be rebased on, and a snapshot another process
  /// took may cover entries this one never read.
  ///
  /// - Complexity: O(1) system calls when nothing changed; else O(snapshot + journal after it).
  private func catchUp(exclusively: Bool, disk: inout Disk) throws(PersistenceError) {
    if !disk.needsReload {
      guard try journalChanged(disk) else { return }
    }
    // The application's values the journal holds (the snapshot's state, the decoded updaters)
    // go to the store's actor whatever happens: in `Heard`, or else given back to be released
    // there. `read` is borrowed, then moved, never copied, so that no copy outlives it.
    guard let initialState = disk.initialState else {
      throw .closed(reason: "the journaled store was closed")
    }
    let read = try JournalRecovery(
      layout: layout, files: files, registry: registry, schema: options.schemaVersion
    ).read(initialState: initialState, after: disk.lastSequence, retiring: retire)
    let known: Int?
    do throws(PersistenceError) {
      known = try adopt(read, exclusively: exclusively, disk: &disk)
    } catch {
      retire(consume read)
      throw error
    }
    guard let known else { return retire(consume read) }
    var heard: Heard<S>? = Heard(journal: consume read, known: known, lastNumber: disk.lastNumber)
    hear(&heard)
  }

  /// Takes on the journal as `recovered` read it: its segments, its tail and its last entry.
  ///
  /// - Returns: The last entry read or written before, when `recovered` has entries after it;
  ///   `nil` when it has none.
  private func adopt(
    _ recovered: borrowing JournalRecovery<S>.Recovered, exclusively: Bool, disk: inout Disk
  ) throws(PersistenceError) -> Int? {
    if let damage = recovered.damage { throw damage }
    guard recovered.lastSequence >= disk.lastSequence else {
      throw .damaged(
        file: layout.directory, line: nil,
        reason: "the journal ends at entry \(recovered.lastSequence), but entry "
          + "\(disk.lastSequence) was read or written before")
    }
    try adoptTail(of: recovered, exclusively: exclusively, disk: &disk)
    disk.segments = recovered.segments
    disk.snapshotSequence = recovered.snapshotSequence
    disk.entriesSinceSnapshot = recovered.entriesSinceSnapshot
    disk.bytesSinceSnapshot = recovered.bytesSinceSnapshot
    let last = recovered.lastSequence
    guard last > disk.lastSequence else { return nil }
    let known = disk.lastSequence
    disk.lastSequence = last
    disk.lastForeign = last
    _shared.withLock { $0._durableSequence = last }
    return known
  }

  /// Makes the journal's last segment, as just read, the one to append to.
  ///
  /// A torn tail is cut by the next append only when it was read under the exclusive lock;
  /// read under the shared one, it is read again first.
  private func adoptTail(
    of recovered: JournalRecovery<S>.Recovered, exclusively: Bool, disk: inout Disk
  ) throws(PersistenceError) {
    disk.needsReload = false
    disk.rollsOver = false
    guard let tail = recovered.tail else {
      disk.segment = nil
      return
    }
    let isTorn = tail.size > tail.committedLength
    let file: OpenFile
    if let current = disk.segment, current.first == tail.first {
      file = current.file
    } else {
      file = try OpenFile(
        layout.segmentPath(first: tail.first), flags: O_RDWR, system: files.system)
    }
    guard tail.schema == options.schemaVersion, recovered.snapshotSequence < tail.first else {
      // The next entry starts a segment of this schema, or one after the snapshot that covers
      // part of this one; the torn tail must go first, as at open, or it would read as damage
      // once this segment is not the last.
      if isTorn && exclusively {
        try file.truncate(to: tail.committedLength)
        try file.synchronize()
      }
      disk.needsReload = isTorn && !exclusively
      disk.segment = Segment(
        first: tail.first, file: file, committedLength: tail.committedLength, needsCut: false,
        isNew: false, knownSize: isTorn && exclusively ? tail.committedLength : tail.size)
      disk.rollsOver = true
      return
    }
    disk.needsReload = isTorn && !exclusively
    disk.segment = Segment(
      first: tail.first, file: file, committedLength: tail.committedLength,
      needsCut: isTorn && exclusively, isNew: false, knownSize: tail.size)
  }

  /// Finds out, under the exclusive lock, how much of an append whose rollback failed is in
  /// the segment: its whole lines there are this store's entries (made durable now), and what
  /// follows is another process's entries or a torn tail, which the reread that follows sorts
  /// out.
  private func settleUncertainAppend(_ disk: inout Disk) throws(PersistenceError) {
    guard let uncertain = disk.uncertain, var segment = disk.segment else {
      disk.uncertain = nil
      return
    }
    let size = try segment.file.size()
    let found =
      size > uncertain.start
      ? try segment.file.read(from: uncertain.start, count: size - uncertain.start) : []
    // The longest run of whole lines (the header first, if any) found as they were written.
    var length = 0
    var written = 0
    let lengths = [uncertain.headerLength] + uncertain.lineLengths
    for (index, count) in lengths.enumerated() where count > 0 {
      let end = length + count
      guard end <= found.count, found[length..<end].elementsEqual(uncertain.bytes[length..<end])
      else { break }
      length = end
      if index > 0 { written += 1 }
    }
    if length > 0 {
      try segment.file.synchronize()
      if segment.isNew {
        try files.synchronizeDirectory(layout.directory)
        segment.isNew = false
      }
    }
    segment.committedLength = uncertain.start + length
    disk.segment = segment
    disk.uncertain = nil
    disk.needsReload = true
    guard written > 0 else { return }
    let entries = disk.unwritten.prefix(written)
    disk.unwritten.removeFirst(entries.count)
    disk.lastSequence += entries.count
    disk.entriesSinceSnapshot += entries.count
    disk.bytesSinceSnapshot += length
    if let last = entries.last {
      disk.lastNumber = last.number
      markDurable(number: last.number, sequence: disk.lastSequence, idle: disk.unwritten.isEmpty)
    }
  }

  /// Appends `line`, encoded with the number 0, to `bytes`, numbered `sequence`.
  static func appendNumbered(_ line: Data, _ sequence: Int, to bytes: inout [UInt8]) {
    // The encoder writes `{"seq":0,` first; only the number changes.
    let placeholder = #"{"seq":0,"#.utf8.count
    bytes += #"{"seq":\#(sequence),"#.utf8
    bytes += line.dropFirst(placeholder)
  }
}

extension Array {
  /// The elements that satisfy `belongs`, and the others, each in their order.
  ///
  /// - Complexity: O(n).
  fileprivate func partitioned(by belongs: (Element) -> Bool) -> (
    matching: [Element], others: [Element]
  ) {
    var matching: [Element] = []
    var others: [Element] = []
    for element in self {
      if belongs(element) { matching.append(element) } else { others.append(element) }
    }
    return (matching, others)
  }
}
