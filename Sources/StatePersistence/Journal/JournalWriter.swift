import ActionLog
import Dispatch
import Foundation
import StateStore
import Synchronization

/// An applied updater on its way from the store's actor to the disk (the store's own
/// `_JournalEntry`, which it appends to the journal's batch itself).
@usableFromInline
typealias _PendingEntry<S: State> = _JournalEntry<S>

extension _JournalEntry {
  /// A snapshot's state or an undo's mark, when the entry carries one: the journal attaches
  /// no other kind of object.
  var extras: _EntryExtras<S>? { _extras.flatMap { $0 as? _EntryExtras<S> } }
  /// The state just after this entry, when the writer asked for a snapshot.
  var snapshot: S? { extras?.snapshot }
  /// The entry it reverts, when ``JournaledStore/undo()`` dispatched it.
  var undoes: Int? { extras?.undoes }
  /// With a snapshot: the last journal entry the store had heard of when it applied this
  /// one, its state then holding the journal up to there, followed by its own updaters only.
  var heardThrough: Int { extras?.heardThrough ?? 0 }
}

/// What a few entries carry besides their updater, held by reference in a ``_PendingEntry``.
@usableFromInline
final class _EntryExtras<S: State>: Sendable {
  /// The state just after the entry, when the writer asked for a snapshot.
  let snapshot: S?
  /// The entry it reverts, when ``JournaledStore/undo()`` dispatched it.
  let undoes: Int?
  /// The last journal entry the store had heard of when it applied the entry.
  let heardThrough: Int

  @usableFromInline
  init(snapshot: S?, undoes: Int?, heardThrough: Int) {
    self.snapshot = snapshot
    self.undoes = undoes
    self.heardThrough = heardThrough
  }
}

/// Appends a journaled store's entries off its actor, in order, several per `write` and `fsync`
/// (group commit), and compacts the journal with snapshots.
///
/// The store's actor hands it batches of entries (see ``_JournalOutbox``): it appends each to
/// ``_Shared/_pending`` under a lock and, when the writer is idle, schedules it on its queue.
/// Everything that touches the disk runs on that queue, in ``Disk``.
///
/// The writer never releases a value of the application's (an updater, what it holds, a
/// snapshot's state): a deinitializer may reach the store, which only the store's actor may
/// do. What it is done with goes back to the actor (``_Shared/_returned``), under the lock that
/// it moves under, so the queue never holds the last reference; the actor releases it (tested
/// in `HostileDeinitializerTests`). What it reads of the journal while the store runs is
/// decoded and not applied, and goes to the actor the same way: in a ``Heard``, or through
/// ``retire(_:)`` when the read fails. Only an open replays here, before any store holds the
/// state.
///
/// Several processes may write to one directory: the writer holds the directory's `flock`
/// only while it appends (exclusive) or reads (shared), and before appending it reads what
/// the others appended since it last looked and hands it to the store's actor (``Heard``), so
/// its own entries are numbered after theirs. See `JournalWriter+Processes.swift`.
@usableFromInline
final class _JournalWriter<S: State & Codable>: Sendable {
  @usableFromInline typealias _Waiter = CheckedContinuation<Result<Void, PersistenceError>, Never>

  /// What the store's actor and the queue share.
  @usableFromInline
  struct _Shared: Sendable {
    /// Batches of entries handed over and not yet taken by a drain, oldest first.
    @usableFromInline var _pending: [[_PendingEntry<S>]] = []
    /// Batches the writer is done with, on their way back to the store's actor.
    ///
    /// The writer never releases a value of the application's
    /// (an updater, what it holds, a state), since a deinitializer may reach the store, which
    /// it can do only on its actor. ``_releaseReturned()`` releases them there.
    @usableFromInline var _returned: [[_PendingEntry<S>]] = []
    /// Snapshot states the writer no longer needs; see ``_returned``.
    @usableFromInline var _returnedStates: [S] = []
    /// What reads of the journal made and did not hand to the store (states and decoded
    /// updaters); see ``_returned``.
    var _returnedReads: [JournalRecovery<S>.Recovered] = []
    /// Whether a task on the store's actor will release what was returned.
    @usableFromInline var _returnIsScheduled = false
    /// Empty batches with room for a batch's entries, emptied on the store's actor from returned
    /// ones: the actor takes one at each hand-off for its next batch, instead of a fresh
    /// allocation whose pages the system clears on first touch.
    @usableFromInline var _spares: [[_PendingEntry<S>]] = []
    /// Whether a drain is scheduled or running.
    @usableFromInline var _isScheduled = false
    /// Whether a flush asked the next drain to retry entries a failure left unwritten.
    @usableFromInline var _flushRequested = false
    /// Whether a write failed and nothing was dispatched or flushed since: entries are then
    /// encoded but not written, so that what is durable stays what the failure said.
    @usableFromInline var _holdsAfterFailure = false
    /// Flushes waiting for this store's entries up to `target` (a `_PendingEntry._number`).
    @usableFromInline var _waiters: [(target: Int, continuation: _Waiter)] = []
    /// The last of this store's entries known to be durable.
    @usableFromInline var _durableNumber = 0
    /// The last journal entry known to be durable, this process's or another's.
    @usableFromInline var _durableSequence: Int
    @usableFromInline var _status = PersistenceStatus.saved
    /// The error that stopped the writer, and the first of this store's entries it did not
    /// write.
    @usableFromInline var _stopped: (error: PersistenceError, number: Int)?

    @usableFromInline
    init(durableSequence: Int) {
      self._durableSequence = durableSequence
    }
  }

  /// The writer's side, touched only on the queue.
  struct Disk {
    var encoder: LineEncoder<S>
    var lock: OpenFile?
    var segment: Segment?
    /// The first entry of every segment on disk, in order.
    var segments: [Int]
    /// Entries encoded but not yet durable, in order: a failed write leaves them here.
    ///
    /// Their lines are numbered 0 until they are appended.
    var unwritten: [Unwritten] = []
    var entriesSinceSnapshot: Int
    var bytesSinceSnapshot: Int
    /// The journal's last entry as this writer knows it: written by it or read.
    var lastSequence: Int
    /// The last of this store's entries written.
    var lastNumber = 0
    /// The last entry another process appended that this writer has read (or the last entry
    /// of a snapshot that covers entries it never read).
    var lastForeign = 0
    /// Whether the next append must start a new segment (a snapshot was just taken); the old
    /// segment stays open to see whether another process appends to it.
    var rollsOver = false
    /// Whether the last read found a torn tail, which only a reread under the exclusive lock
    /// may cut.
    var needsReload = false
    /// An append whose rollback failed: its bytes may be in the segment, whole or in part.
    var uncertain: UncertainAppend?
    /// How many ``JournaledStore/withExclusiveAccess(_:)`` calls hold the exclusive lock: while
    /// any does, appends and reads keep it instead of releasing it or taking the shared one.
    var exclusiveHolders = 0
    /// The entry the snapshot covers, as this writer last wrote or read it.
    var snapshotSequence = 0
    /// Snapshot states of written entries, to return to the store's actor (see
    /// ``_Shared/_returned``).
    var finishedStates: [S] = []
    /// The state before the journal's first entry, which a read of the journal starts from
    /// when no snapshot covers it; `nil` once the files are closed, when it goes back to the
    /// store's actor with what else the writer gives back: the writer itself may then be
    /// released on its queue, after the journaled store.
    var initialState: S?
  }

  typealias Unwritten = (number: Int, line: Data, snapshot: S?, heardThrough: Int)

  /// What an append whose rollback failed tried to write at `start`.
  struct UncertainAppend {
    let start: Int
    /// The bytes: the segment's header when the append began the segment, then the numbered
    /// lines.
    let bytes: [UInt8]
    /// The header's length, 0 without one.
    let headerLength: Int
    /// Each line's length, newline included, in order.
    let lineLengths: [Int]
  }

  /// The segment being appended to.
  struct Segment {
    let first: Int
    let file: OpenFile
    /// The length up to its last durable line.
    var committedLength: Int
    /// Whether a torn tail follows `committedLength`, as read under the exclusive lock held
    /// now: the next append cuts it.
    var needsCut: Bool
    /// Whether its directory entry is not yet known to be durable.
    var isNew: Bool
    /// The file's size when this writer last wrote or read it: another size means another
    /// process appended.
    var knownSize: Int
  }

  let layout: JournalLayout
  let files: FileAccess
  let options: JournalOptions
  /// The registry the journal is read and written with.
  let registry: ActionLogRegistry<S>
  /// Raised by the queue when a snapshot is due; the store's actor then hands over its state.
  @usableFromInline let _snapshotWanted = _JournalSignal()
  /// Not a `Mutex`: the store's actor and the queue contend for it, and ThreadSanitizer cannot
  /// see a contended `Mutex` hand over on Linux (see `SpinLocked`).
  @usableFromInline let _shared: _SpinLocked<_Shared>
  let disk: Mutex<Disk>
  @usableFromInline let _queue: DispatchQueue
  let report: @Sendable (PersistenceError) -> Void
  /// Hands what other processes appended to the store's actor, taking it out of the optional
  /// under the inbox's lock, so that the queue never holds the last reference to it.
  let hear: @Sendable (inout Heard<S>?) -> Void

  /// Creates the writer for a directory whose journal was recovered as `recovered` while
  /// `lock` held the directory's exclusive lock, and releases that lock; call on the queue.
  init(
    layout: JournalLayout, files: FileAccess, options: JournalOptions,
    registry: ActionLogRegistry<S>, initialState: S, lock: sending OpenFile,
    recovered: JournalRecovery<S>.Recovered, queue: DispatchQueue,
    report: @escaping @Sendable (PersistenceError) -> Void,
    hear: @escaping @Sendable (inout Heard<S>?) -> Void
  ) throws(PersistenceError) {
    self.layout = layout
    self.files = files
    self.options = options
    self.registry = registry
    self._queue = queue
    self.report = report
    self.hear = hear
    var segment: Segment?
    if let tail = recovered.tail {
      let file = try OpenFile(
        layout.segmentPath(first: tail.first), flags: O_RDWR, system: files.system)
      if tail.schema == options.schemaVersion {
        // A torn tail is cut only after a reread under the exclusive lock: another process
        // may append in between.
        segment = Segment(
          first: tail.first, file: file, committedLength: tail.committedLength,
          needsCut: false, isNew: false, knownSize: tail.size)
      } else if tail.size > tail.committedLength {
        // The next entry starts a segment of the new schema, after which this one is no longer
        // the last: its torn tail must go now, or it would read as damage.
        try file.truncate(to: tail.committedLength)
        try file.synchronize()
      }
    }
    // A segment that the snapshot covers part of is not appended to again, whichever process
    // took the snapshot: the next entry starts a new segment, so that readers skip the covered
    // one (see `JournalLayout.neededSegments`). A torn tail goes first, as above.
    var rollsOver = false
    if let tail = recovered.tail, let current = segment, recovered.snapshotSequence >= tail.first {
      if tail.size > tail.committedLength {
        try current.file.truncate(to: tail.committedLength)
        try current.file.synchronize()
        segment?.knownSize = tail.committedLength
      }
      rollsOver = true
    }
    _shared = _SpinLocked(_Shared(durableSequence: recovered.lastSequence))
    let needsReload = segment.map { $0.knownSize > $0.committedLength } ?? false
    do {
      try lock.lock(LOCK_UN)
    } catch {
      throw .failed("unlock", layout.lockPath, error)
    }
    disk = Mutex(
      Disk(
        encoder: LineEncoder(registry: registry), lock: lock, segment: segment,
        segments: recovered.segments, entriesSinceSnapshot: recovered.entriesSinceSnapshot,
        bytesSinceSnapshot: recovered.bytesSinceSnapshot, lastSequence: recovered.lastSequence,
        needsReload: needsReload, snapshotSequence: recovered.snapshotSequence,
        initialState: initialState))
    if rollsOver { disk.withLock { $0.rollsOver = true } }
    if recovered.oldestSchema < options.schemaVersion {
      // The upgrade: the state read through the migrations becomes a snapshot of the current
      // version, and the old files go only once it is durable, as in any compaction. Should it
      // fail, the old files stay and are read through the migrations again.
      disk.withLock { takeSnapshot(recovered.state, at: recovered.lastSequence, disk: &$0) }
    }
    let due = disk.withLock {
      $0.entriesSinceSnapshot >= options.snapshotInterval
        || $0.bytesSinceSnapshot >= options.snapshotByteThreshold
    }
    if due {
      _snapshotWanted._raised.store(true, ordering: .relaxed)
    }
  }

  /// Where the writer stands.
  var status: PersistenceStatus { _shared.withLock { $0._status } }

  /// The last journal entry known to be durable.
  var durableSequence: Int { _shared.withLock { $0._durableSequence } }

  /// The last of this store's entries known to be durable.
  var durableNumber: Int { _shared.withLock { $0._durableNumber } }

  /// Hands a batch of applied entries, in order, to the writer; never waits on the disk.
  ///
  /// With `wakes` false, an idle writer is left idle: the batch waits for the next call that
  /// wakes it (``wake()``, a flush, or another hand-off), and a writer at work takes it in turn.
  ///
  /// - Returns: The last of this store's entries known to be durable, and an empty batch with
  ///   room for entries, when the writer has one to spare.
  @inlinable
  func enqueue(_ batch: [_PendingEntry<S>], wakes: Bool = true) -> (
    durable: Int, spare: [_PendingEntry<S>]?
  ) {
    let (schedule, durable, spare) = _shared.withLock {
      shared -> (Bool, Int, [_PendingEntry<S>]?) in
      let spare = shared._spares.popLast()
      if let stopped = shared._stopped, let first = batch.first, first._number >= stopped.number {
        return (wakes && _scheduleIfIdle(&shared), shared._durableNumber, spare)
      }
      shared._pending.append(batch)
      shared._holdsAfterFailure = false
      if shared._status == .saved { shared._status = .saving }
      return (wakes && _scheduleIfIdle(&shared), shared._durableNumber, spare)
    }
    if schedule { _queue.async { self._drain() } }
    return (durable, spare)
  }

  /// Sets an idle writer to work on what was handed to it without waking it.
  @usableFromInline
  func wake() {
    let schedule = _shared.withLock { _scheduleIfIdle(&$0) }
    if schedule { _queue.async { self._drain() } }
  }

  /// How many empty batches the writer keeps for the store's actor.
  static var _spareLimit: Int { 2 }

  /// Gives the batches of `finished` and the states of `states` back to the store's actor,
  /// leaving both empty, and schedules their release there; call on the queue.
  ///
  /// The references move under the lock, so the queue never holds the last one: the actor
  /// takes them only after this returns.
  private func giveBack(_ finished: inout [[_PendingEntry<S>]], _ states: inout [S]) {
    guard !finished.isEmpty || !states.isEmpty else { return }
    let schedule = _shared.withLock { shared -> Bool in
      shared._returned.append(contentsOf: finished)
      shared._returnedStates.append(contentsOf: states)
      // Released under the lock: `_returned` holds every one of them until the actor takes
      // it, which it cannot do before the lock is released.
      finished.removeAll(keepingCapacity: true)
      states.removeAll()
      defer { shared._returnIsScheduled = true }
      return !shared._returnIsScheduled
    }
    if schedule { Task { @MainActor in self._releaseReturned() } }
  }

  /// Gives what a read of the journal made (a state, decoded updaters) back to the store's
  /// actor, and schedules its release there; call on the queue.
  ///
  /// As in ``giveBack(_:_:)``, the reference moves under the lock.
  func retire(_ read: consuming JournalRecovery<S>.Recovered) {
    var moving = Optional(read)
    let schedule = _shared.withLock { shared -> Bool in
      if let read = moving.take() { shared._returnedReads.append(read) }
      defer { shared._returnIsScheduled = true }
      return !shared._returnIsScheduled
    }
    if schedule { Task { @MainActor in self._releaseReturned() } }
  }

  /// Releases, on the store's actor, what the writer gave back.
  ///
  /// The application's values are destroyed here, as a store without a journal destroys them.
  /// Up to ``_spareLimit`` batches
  /// are kept, emptied, for the actor's next batches.
  ///
  /// - Complexity: O(entries returned).
  @MainActor
  func _releaseReturned() {
    var (returned, states, reads) = _shared.withLock { shared in
      shared._returnIsScheduled = false
      defer {
        shared._returned = []
        shared._returnedStates = []
        shared._returnedReads = []
      }
      return (shared._returned, shared._returnedStates, shared._returnedReads)
    }
    states.removeAll()
    reads.removeAll()
    var spares: [[_PendingEntry<S>]] = []
    while var batch = returned.popLast() {
      guard spares.count < Self._spareLimit else { continue }
      let capacity = batch.capacity
      // In place when the batch is the last reference to its memory (the store dropped its
      // own); a copy would be a fresh allocation, no better than none.
      batch.removeAll(keepingCapacity: true)
      if capacity > 0 && batch.capacity >= capacity { spares.append(batch) }
    }
    guard !spares.isEmpty else { return }
    _shared.withLock { shared in
      let room = max(0, Self._spareLimit - shared._spares.count)
      shared._spares += spares.prefix(room)
    }
  }

  /// Stops writing at this store's entry `number` with `error`: entries before it are still
  /// written, none from it on.
  func stop(_ error: PersistenceError, at number: Int) {
    let failed = _shared.withLock { shared -> [_Waiter] in
      if shared._stopped == nil { shared._stopped = (error, number) }
      shared._status = .stopped(shared._stopped?.error ?? error)
      let failed = shared._waiters.filter { $0.target >= number }.map(\.continuation)
      shared._waiters.removeAll { $0.target >= number }
      return failed
    }
    for waiter in failed { waiter.resume(returning: .failure(error)) }
  }

  /// Returns once every one of this store's entries up to number `target` is durable, or with
  /// the error that kept one from being written.
  func flush(upTo target: Int) async -> Result<Void, PersistenceError> {
    await withCheckedContinuation { (continuation: _Waiter) in
      let (immediate, schedule) = _shared.withLock {
        shared -> (Result<Void, PersistenceError>?, Bool) in
        if shared._durableNumber >= target { return (.success(()), false) }
        if let stopped = shared._stopped, target >= stopped.number {
          return (.failure(stopped.error), false)
        }
        shared._waiters.append((target, continuation))
        shared._flushRequested = true
        shared._holdsAfterFailure = false
        return (nil, _scheduleIfIdle(&shared))
      }
      if let immediate { continuation.resume(returning: immediate) }
      if schedule { _queue.async { self._drain() } }
    }
  }

  /// Runs `work` on the writer's queue, between two batches, and returns its result.
  func run<Success: Sendable>(
    _ work: @escaping @Sendable () -> Result<Success, PersistenceError>
  ) async -> Result<Success, PersistenceError> {
    await WriteQueue(_queue).run(work)
  }

  /// Closes the files, releasing the directory's lock, once everything queued before is
  /// written; later entries are not written.
  func close() {
    _queue.async { self.closeFiles() }
  }

  /// Closes the files as ``close()`` does, and returns once they are closed.
  func closeAndWait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      _queue.async {
        self.closeFiles()
        continuation.resume()
      }
    }
  }

  private func closeFiles() {
    var states = disk.withLock { disk -> [S] in
      try? disk.segment?.file.close()
      disk.segment = nil
      try? disk.lock?.close()
      disk.lock = nil
      disk.exclusiveHolders = 0
      // The application's states the writer still holds (its initial state, those of
      // snapshots a failed write left unwritten, which will never be written now), moved out
      // under the lock: this closure holds the only other reference until `giveBack` moves
      // them on, under the other lock.
      var states = disk.finishedStates
      disk.finishedStates = []
      states.append(contentsOf: disk.unwritten.compactMap(\.snapshot))
      disk.unwritten = []
      if let initialState = disk.initialState.take() { states.append(initialState) }
      return states
    }
    var finished: [[_PendingEntry<S>]] = []
    giveBack(&finished, &states)
  }

  @usableFromInline
  func _scheduleIfIdle(_ shared: inout _Shared) -> Bool {
    guard !shared._isScheduled else { return false }
    shared._isScheduled = true
    return true
  }

  /// Writes what is pending, batch after batch, until nothing is; runs on the queue.
  @usableFromInline
  func _drain() {
    // The batches are swapped out of the lock with an empty array of the same capacity, so
    // taking them costs the store's actor no allocation and no copy while it waits for the lock.
    var batch: [[_PendingEntry<S>]] = []
    while true {
      let taken = _shared.withLock { shared -> (holds: Bool, stoppedAt: Int?)? in
        guard !shared._pending.isEmpty || shared._flushRequested else {
          shared._isScheduled = false
          return nil
        }
        shared._flushRequested = false
        swap(&shared._pending, &batch)
        return (shared._holdsAfterFailure, shared._stopped?.number)
      }
      guard let taken else { return }
      disk.withLock { disk in
        write(batch, before: taken.stoppedAt, commits: !taken.holds, disk: &disk)
        giveBack(&batch, &disk.finishedStates)
      }
    }
  }

  /// Encodes the entries of `batch` before `stoppedAt`, and appends every unwritten entry
  /// unless `commits` is false.
  private func write(
    _ batch: [[_PendingEntry<S>]], before stoppedAt: Int?, commits: Bool, disk: inout Disk
  ) {
    guard disk.lock != nil else {
      stop(.closed(reason: "the journaled store was closed"), at: batch.first?.first?._number ?? 1)
      return
    }
    // One reading of the clock per batch, off the store's actor: the batch was applied moments
    // ago, while the previous one was written.
    let time = options.recordsTime ? options.now() : nil
    for entry in batch.joined() {
      // An entry queued before the writer stopped is not written past the stop.
      if let stoppedAt, entry._number >= stoppedAt { break }
      // Numbered 0 for now: the entry's number is known once the journal is read under the
      // exclusive lock, just before appending.
      var (line, failure) = disk.encoder.entry(
        entry._updater, sequence: 0, cause: entry._cause, time: time)
      if let failure {
        // Writing this entry's marker would make the journal unreadable past it, and skipping
        // it would leave a gap: the journal ends before it, and the store says so.
        let error = PersistenceError.encodingFailed(
          type: String(reflecting: type(of: entry._updater)), reason: failure.description)
        stop(error, at: entry._number)
        report(error)
        break
      }
      if let undoes = entry.undoes {
        // The line ends in "}\n": the mark goes inside, after the payload.
        line.removeLast(2)
        line.append(contentsOf: ",\"undoes\":\(undoes)}\n".utf8)
      }
      disk.unwritten.append((entry._number, line, entry.snapshot, entry.heardThrough))
    }
    if commits { commitUnwritten(&disk) }
  }

  /// Takes the exclusive lock, reads what other processes appended, then appends the unwritten
  /// entries after it, up to each one carrying a snapshot, then takes it.
  private func commitUnwritten(_ disk: inout Disk) {
    guard !disk.unwritten.isEmpty else { return }
    do throws(PersistenceError) {
      try lockAndCatchUp(exclusively: true, disk: &disk)
    } catch {
      fail(error)
      return
    }
    defer { unlock(&disk) }
    while !disk.unwritten.isEmpty {
      let end = (disk.unwritten.firstIndex { $0.snapshot != nil } ?? disk.unwritten.count - 1) + 1
      let chunk = disk.unwritten[..<end]
      do throws(PersistenceError) {
        try append(chunk, disk: &disk)
      } catch {
        fail(error)
        return
      }
      disk.unwritten.removeFirst(end)
      // The states go back to the store's actor with the batch (see `giveBack`).
      for entry in chunk { if let state = entry.snapshot { disk.finishedStates.append(state) } }
      let last = chunk[chunk.index(before: chunk.endIndex)]
      disk.lastNumber = last.number
      markDurable(number: last.number, sequence: disk.lastSequence, idle: disk.unwritten.isEmpty)
      guard let state = last.snapshot else { continue }
      if disk.lastForeign <= last.heardThrough {
        takeSnapshot(state, at: disk.lastSequence, disk: &disk)
      } else {
        // The store took it before hearing of entries another process appended before this
        // one: it is not the journal's state there. Ask for the state again.
        _snapshotWanted._raised.store(true, ordering: .relaxed)
      }
    }
  }

  /// Writes `chunk` at the end of the journal, numbered from the entry after
  /// ``Disk/lastSequence``, with one `write` and one `fsync`, or leaves the segment as durable
  /// as it was and throws.
  private func append(_ chunk: ArraySlice<Unwritten>, disk: inout Disk) throws(PersistenceError) {
    // Checked against the journal as just read under the exclusive lock, not against the
    // store's view of it: another process may have appended meanwhile. Readers refuse entry
    // `Int.max`, so it is never written.
    guard chunk.count <= (Int.max - 1) - disk.lastSequence else {
      throw .closed(reason: "the journal's numbering is used up at entry \(disk.lastSequence)")
    }
    let first = disk.lastSequence + 1
    if disk.segment == nil || disk.rollsOver {
      let path = layout.segmentPath(first: first)
      let file = try OpenFile(path, flags: O_RDWR | O_CREAT | O_TRUNC, system: files.system)
      disk.segment = Segment(
        first: first, file: file, committedLength: 0, needsCut: false, isNew: true, knownSize: 0)
      disk.rollsOver = false
      if disk.segments.last != first { disk.segments.append(first) }
    }
    guard var segment = disk.segment else { return }
    var keepsSegment = true
    defer { disk.segment = keepsSegment ? segment : nil }
    var bytes: [UInt8] = []
    if segment.committedLength == 0 {
      bytes = JournalLayout.header(stateType: S.self, schema: options.schemaVersion)
    }
    let headerLength = bytes.count
    var lineLengths: [Int] = []
    lineLengths.reserveCapacity(chunk.count)
    for (offset, entry) in chunk.enumerated() {
      let before = bytes.count
      Self.appendNumbered(entry.line, first + offset, to: &bytes)
      lineLengths.append(bytes.count - before)
    }
    let start = segment.committedLength
    if segment.needsCut {
      // Nothing is written yet: a failed cut leaves the journal as it was, torn tail and all
      // (readers ignore it), and the next append cuts it again.
      try segment.file.truncate(to: start)
      segment.needsCut = false
    }
    do throws(PersistenceError) {
      try segment.file.write(bytes, at: start)
      try segment.file.synchronize()
      if segment.isNew {
        try files.synchronizeDirectory(layout.directory)
        segment.isNew = false
      }
    } catch {
      // Cut the torn append back, so that what is durable stays exactly what it was.
      do throws(PersistenceError) {
        try segment.file.truncate(to: start)
        try segment.file.synchronize()
      } catch let rollback {
        // Sorted out under the next exclusive lock, see `settleUncertainAppend`.
        disk.uncertain = UncertainAppend(
          start: start, bytes: bytes, headerLength: headerLength, lineLengths: lineLengths)
        throw .uncertain(cause: error.description, rollback: rollback.description)
      }
      if segment.isNew && start == 0 {
        keepsSegment = !removeEmptySegment(segment, disk: &disk)
      }
      throw error
    }
    segment.committedLength += bytes.count
    segment.knownSize = segment.committedLength
    disk.lastSequence += chunk.count
    disk.entriesSinceSnapshot += chunk.count
    disk.bytesSinceSnapshot += bytes.count
    // Ask the store's actor for its state with the next entry, unless this chunk carries one.
    let carriesSnapshot = chunk.last?.snapshot != nil
    if !carriesSnapshot
      && (disk.entriesSinceSnapshot >= options.snapshotInterval
        || disk.bytesSinceSnapshot >= options.snapshotByteThreshold)
    {
      _snapshotWanted._raised.store(true, ordering: .relaxed)
    }
  }

  /// Removes `segment`, which this writer created for an append that was cut back to nothing,
  /// so that the directory is exactly as it was before; the next append creates it again.
  ///
  /// - Returns: Whether it is gone; if the removal fails, the empty file stays, and reads as a
  ///   segment without entries.
  private func removeEmptySegment(_ segment: Segment, disk: inout Disk) -> Bool {
    do throws(PersistenceError) {
      try files.remove(layout.segmentPath(first: segment.first))
    } catch {
      return false
    }
    try? segment.file.close()
    disk.segments.removeAll { $0 == segment.first }
    return true
  }

  /// Saves `state`, the state after the durable entry `sequence`, as the snapshot.
  ///
  /// Then the next entry starts a new segment and the segments the snapshot covers are
  /// removed. A failure is
  /// reported and changes nothing: the journal still holds every entry, and the next commit asks
  /// for a snapshot again.
  private func takeSnapshot(_ state: S, at sequence: Int, disk: inout Disk) {
    do throws(PersistenceError) {
      let bytes = try SnapshotCodec.encode(state, schema: options.schemaVersion, seq: sequence)
      try files.replaceWithoutSynchronizingDirectory(layout.snapshotPath, with: bytes)
    } catch {
      report(error)
      return
    }
    // The rename is done: the snapshot counts as taken, and the next entry starts a new
    // segment, even if the directory's synchronization fails (readers then find the snapshot,
    // or after a power cut the old one, and either way the entries after it).
    disk.entriesSinceSnapshot = 0
    disk.bytesSinceSnapshot = 0
    disk.snapshotSequence = sequence
    // The old segment stays open: another process that did not see the snapshot may still
    // append to it, and its size tells.
    disk.rollsOver = true
    do throws(PersistenceError) {
      try files.synchronizeDirectory(layout.directory)
    } catch {
      // The covered segments stay until a snapshot is known durable: the next one removes
      // them.
      report(error)
      return
    }
    // Only now that the snapshot is durable may the segments it covers go, unless they are
    // kept for history.
    guard !options.keepsFullHistory else { return }
    var kept: [Int] = []
    for first in disk.segments {
      guard first <= sequence else {
        kept.append(first)
        continue
      }
      do throws(PersistenceError) {
        try files.remove(layout.segmentPath(first: first))
      } catch {
        // A covered segment left behind is skipped when reading; the next snapshot retries.
        kept.append(first)
        report(error)
      }
    }
    disk.segments = kept
  }

  /// Records this store's entries up to `number` as durable, the journal being durable up to
  /// its entry `sequence`.
  func markDurable(number: Int, sequence: Int, idle: Bool) {
    let ready = _shared.withLock { shared -> [_Waiter] in
      shared._durableNumber = number
      shared._durableSequence = sequence
      if shared._stopped == nil {
        shared._status = idle && shared._pending.isEmpty ? .saved : .saving
      }
      let ready = shared._waiters.filter { $0.target <= number }.map(\.continuation)
      shared._waiters.removeAll { $0.target <= number }
      return ready
    }
    for waiter in ready { waiter.resume(returning: .success(())) }
  }

  private func fail(_ error: PersistenceError) {
    let failed = _shared.withLock { shared -> [_Waiter] in
      if shared._stopped == nil { shared._status = .failing(error) }
      // The flushes that asked for a retry get this failure as their answer; the next retry
      // waits for the next dispatch or flush, so what is durable stays as the error says.
      shared._flushRequested = false
      shared._holdsAfterFailure = true
      defer { shared._waiters.removeAll() }
      return shared._waiters.map(\.continuation)
    }
    for waiter in failed { waiter.resume(returning: .failure(error)) }
    report(error)
  }
}
