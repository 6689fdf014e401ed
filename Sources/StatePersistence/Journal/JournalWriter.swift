import ActionLog
import Dispatch
import Foundation
import StateStore
import Synchronization

/// An applied updater on its way from the store's actor to the disk.
struct PendingEntry<S: State>: Sendable {
  let updater: any StateUpdater<S>
  let cause: DispatchCause?
  let sequence: Int
  /// The state just after this entry, when the writer asked for a snapshot.
  let snapshot: S?
  /// The entry it reverts, when ``JournaledStore/undo()`` dispatched it.
  var undoes: Int? = nil
}

/// Appends a journaled store's entries off its actor, in order, several per `write` and `fsync`
/// (group commit), and compacts the journal with snapshots.
///
/// The store's actor only appends to ``Shared/pending`` under a lock and, when the writer is
/// idle, schedules it on its queue. Everything that touches the disk runs on that queue, in
/// ``Disk``.
final class JournalWriter<S: State & Codable>: Sendable {
  typealias Waiter = CheckedContinuation<Result<Void, PersistenceError>, Never>

  /// What the store's actor and the queue share.
  struct Shared {
    var pending: [PendingEntry<S>] = []
    /// Whether a drain is scheduled or running.
    var isScheduled = false
    /// Whether a flush asked the next drain to retry entries a failure left unwritten.
    var flushRequested = false
    /// Whether a write failed and nothing was dispatched or flushed since: entries are then
    /// encoded but not written, so that what is durable stays what the failure said.
    var holdsAfterFailure = false
    var waiters: [(target: Int, continuation: Waiter)] = []
    var durableSequence: Int
    var status = PersistenceStatus.saved
    /// The error that stopped the writer, and the first entry it did not write.
    var stopped: (error: PersistenceError, sequence: Int)?
  }

  /// The writer's side, touched only on the queue.
  struct Disk {
    var encoder: LineEncoder<S>
    var lock: OpenFile?
    var segment: Segment?
    /// The first entry of every segment on disk, in order.
    var segments: [Int]
    /// Entries encoded but not yet durable, in order: a failed write leaves them here.
    var unwritten: [(sequence: Int, line: Data, snapshot: S?)] = []
    var entriesSinceSnapshot: Int
    var bytesSinceSnapshot: Int
  }

  /// The segment being appended to.
  struct Segment {
    let first: Int
    let file: OpenFile
    /// The length up to its last durable line.
    var committedLength: Int
    /// Whether bytes past `committedLength` may be there (a torn tail, a failed rollback).
    var needsCut: Bool
    /// Whether its directory entry is not yet known to be durable.
    var isNew: Bool
  }

  let layout: JournalLayout
  let files: FileAccess
  let options: JournalOptions
  /// The registry the journal is read and written with.
  let registry: ActionLogRegistry<S>
  /// The state before the journal's first entry.
  let initialState: S
  /// Set by the queue when a snapshot is due; the store's actor then hands over its state.
  let wantsSnapshot = Atomic<Bool>(false)
  /// Not a `Mutex`: the store's actor and the queue contend for it, and ThreadSanitizer cannot
  /// see a contended `Mutex` hand over on Linux (see `SpinLocked`).
  private let shared: SpinLocked<Shared>
  private let disk: Mutex<Disk>
  private let queue: DispatchQueue
  private let report: @Sendable (PersistenceError) -> Void

  /// Creates the writer for a directory whose journal was recovered as `recovered` and whose
  /// lock `lock` holds; call on the queue.
  init(
    layout: JournalLayout, files: FileAccess, options: JournalOptions,
    registry: ActionLogRegistry<S>, initialState: S, lock: sending OpenFile,
    recovered: JournalRecovery<S>.Recovered, queue: DispatchQueue,
    report: @escaping @Sendable (PersistenceError) -> Void
  ) throws(PersistenceError) {
    self.registry = registry
    self.initialState = initialState
    self.layout = layout
    self.files = files
    self.options = options
    self.queue = queue
    self.report = report
    var segment: Segment?
    if let tail = recovered.tail {
      let file = try OpenFile(
        layout.segmentPath(first: tail.first), flags: O_RDWR, system: files.system)
      if tail.schema == options.schemaVersion {
        segment = Segment(
          first: tail.first, file: file, committedLength: tail.committedLength,
          needsCut: tail.size > tail.committedLength, isNew: false)
      } else if tail.size > tail.committedLength {
        // The next entry starts a segment of the new schema, after which this one is no longer
        // the last: its torn tail must go now, or it would read as damage.
        try file.truncate(to: tail.committedLength)
        try file.synchronize()
      }
    }
    shared = SpinLocked(Shared(durableSequence: recovered.lastSequence))
    disk = Mutex(
      Disk(
        encoder: LineEncoder(registry: registry), lock: lock, segment: segment,
        segments: recovered.segments, entriesSinceSnapshot: recovered.entriesSinceSnapshot,
        bytesSinceSnapshot: recovered.bytesSinceSnapshot))
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
      wantsSnapshot.store(true, ordering: .relaxed)
    }
  }

  /// Where the writer stands.
  var status: PersistenceStatus { shared.withLock { $0.status } }

  /// The last entry known to be durable.
  var durableSequence: Int { shared.withLock { $0.durableSequence } }

  /// Hands an applied entry to the writer; never waits on the disk.
  func enqueue(_ entry: PendingEntry<S>) {
    let schedule = shared.withLock { shared -> Bool in
      if let stopped = shared.stopped, entry.sequence >= stopped.sequence { return false }
      shared.pending.append(entry)
      shared.holdsAfterFailure = false
      if shared.status == .saved { shared.status = .saving }
      return scheduleIfIdle(&shared)
    }
    if schedule { queue.async { self.drain() } }
  }

  /// Stops writing at `sequence` with `error`: entries before it are still written, none from
  /// it on.
  func stop(_ error: PersistenceError, at sequence: Int) {
    let failed = shared.withLock { shared -> [Waiter] in
      if shared.stopped == nil { shared.stopped = (error, sequence) }
      shared.status = .stopped(shared.stopped?.error ?? error)
      let failed = shared.waiters.filter { $0.target >= sequence }.map(\.continuation)
      shared.waiters.removeAll { $0.target >= sequence }
      return failed
    }
    for waiter in failed { waiter.resume(returning: .failure(error)) }
  }

  /// Returns once every entry up to `target` is durable, or with the error that kept one from
  /// being written.
  func flush(upTo target: Int) async -> Result<Void, PersistenceError> {
    await withCheckedContinuation { (continuation: Waiter) in
      let (immediate, schedule) = shared.withLock {
        shared -> (Result<Void, PersistenceError>?, Bool) in
        if shared.durableSequence >= target { return (.success(()), false) }
        if let stopped = shared.stopped, target >= stopped.sequence {
          return (.failure(stopped.error), false)
        }
        shared.waiters.append((target, continuation))
        shared.flushRequested = true
        shared.holdsAfterFailure = false
        return (nil, scheduleIfIdle(&shared))
      }
      if let immediate { continuation.resume(returning: immediate) }
      if schedule { queue.async { self.drain() } }
    }
  }

  /// Runs `work` on the writer's queue, between two batches, and returns its result.
  func run<Success: Sendable>(
    _ work: @escaping @Sendable () -> Result<Success, PersistenceError>
  ) async -> Result<Success, PersistenceError> {
    await WriteQueue(queue).run(work)
  }

  /// Closes the files, releasing the directory's lock, once everything queued before is
  /// written; later entries are not written.
  func close() {
    queue.async { self.closeFiles() }
  }

  /// Closes the files as ``close()`` does, and returns once they are closed.
  func closeAndWait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      queue.async {
        self.closeFiles()
        continuation.resume()
      }
    }
  }

  private func closeFiles() {
    disk.withLock { disk in
      try? disk.segment?.file.close()
      disk.segment = nil
      try? disk.lock?.close()
      disk.lock = nil
    }
  }

  private func scheduleIfIdle(_ shared: inout Shared) -> Bool {
    guard !shared.isScheduled else { return false }
    shared.isScheduled = true
    return true
  }

  /// Writes what is pending, batch after batch, until nothing is; runs on the queue.
  private func drain() {
    // The batch is swapped out of the lock with an empty array of the same capacity, so taking
    // it costs the store's actor no allocation and no copy while it waits for the lock.
    var batch: [PendingEntry<S>] = []
    while true {
      let taken = shared.withLock { shared -> (holds: Bool, stoppedAt: Int?)? in
        guard !shared.pending.isEmpty || shared.flushRequested else {
          shared.isScheduled = false
          return nil
        }
        shared.flushRequested = false
        swap(&shared.pending, &batch)
        return (shared.holdsAfterFailure, shared.stopped?.sequence)
      }
      guard let taken else { return }
      disk.withLock { disk in
        write(batch, before: taken.stoppedAt, commits: !taken.holds, disk: &disk)
      }
      batch.removeAll(keepingCapacity: true)
    }
  }

  /// Encodes the entries of `batch` before `stoppedAt`, and appends every unwritten entry
  /// unless `commits` is false.
  private func write(
    _ batch: [PendingEntry<S>], before stoppedAt: Int?, commits: Bool, disk: inout Disk
  ) {
    guard disk.lock != nil else {
      stop(.closed(reason: "the journaled store was closed"), at: batch.first?.sequence ?? 1)
      return
    }
    // One reading of the clock per batch, off the store's actor: the batch was applied moments
    // ago, while the previous one was written.
    let time = options.recordsTime ? Date() : nil
    for entry in batch {
      // An entry queued before the writer stopped is not written past the stop.
      if let stoppedAt, entry.sequence >= stoppedAt { break }
      var (line, failure) = disk.encoder.entry(
        entry.updater, sequence: entry.sequence, cause: entry.cause, time: time)
      if let failure {
        // Writing this entry's marker would make the journal unreadable past it, and skipping
        // it would leave a gap: the journal ends before it, and the store says so.
        let error = PersistenceError.encodingFailed(
          type: String(reflecting: type(of: entry.updater)), reason: failure.description)
        stop(error, at: entry.sequence)
        report(error)
        break
      }
      if let undoes = entry.undoes {
        // The line ends in "}\n": the mark goes inside, after the payload.
        line.removeLast(2)
        line.append(contentsOf: ",\"undoes\":\(undoes)}\n".utf8)
      }
      disk.unwritten.append((entry.sequence, line, entry.snapshot))
    }
    if commits { commitUnwritten(&disk) }
  }

  /// Appends the unwritten entries, up to each one carrying a snapshot, then takes it.
  private func commitUnwritten(_ disk: inout Disk) {
    while let first = disk.unwritten.first {
      let end = (disk.unwritten.firstIndex { $0.snapshot != nil } ?? disk.unwritten.count - 1) + 1
      let chunk = disk.unwritten[..<end]
      do throws(PersistenceError) {
        try append(chunk, startingAt: first.sequence, disk: &disk)
      } catch {
        fail(error)
        return
      }
      disk.unwritten.removeFirst(end)
      let last = chunk[chunk.index(before: chunk.endIndex)]
      markDurable(upTo: last.sequence, idle: disk.unwritten.isEmpty)
      if let state = last.snapshot { takeSnapshot(state, at: last.sequence, disk: &disk) }
    }
  }

  /// Writes `chunk` at the end of the segment with one `write` and one `fsync`, or leaves the
  /// segment as durable as it was and throws.
  private func append(
    _ chunk: ArraySlice<(sequence: Int, line: Data, snapshot: S?)>, startingAt first: Int,
    disk: inout Disk
  ) throws(PersistenceError) {
    if disk.segment == nil {
      let path = layout.segmentPath(first: first)
      let file = try OpenFile(path, flags: O_RDWR | O_CREAT | O_TRUNC, system: files.system)
      disk.segment = Segment(
        first: first, file: file, committedLength: 0, needsCut: false, isNew: true)
      if disk.segments.last != first { disk.segments.append(first) }
    }
    guard var segment = disk.segment else { return }
    defer { disk.segment = segment }
    var bytes: [UInt8] = []
    if segment.committedLength == 0 {
      bytes = JournalLayout.header(stateType: S.self, schema: options.schemaVersion)
    }
    for entry in chunk { bytes += entry.line }
    let start = segment.committedLength
    do throws(PersistenceError) {
      if segment.needsCut {
        try segment.file.truncate(to: start)
        segment.needsCut = false
      }
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
        segment.needsCut = true
        throw .uncertain(cause: error.description, rollback: rollback.description)
      }
      throw error
    }
    segment.committedLength += bytes.count
    disk.entriesSinceSnapshot += chunk.count
    disk.bytesSinceSnapshot += bytes.count
    // Ask the store's actor for its state with the next entry, unless this chunk carries one.
    let carriesSnapshot = chunk.last?.snapshot != nil
    if !carriesSnapshot
      && (disk.entriesSinceSnapshot >= options.snapshotInterval
        || disk.bytesSinceSnapshot >= options.snapshotByteThreshold)
    {
      wantsSnapshot.store(true, ordering: .relaxed)
    }
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
      try files.replaceAtomically(layout.snapshotPath, with: bytes, in: layout.directory)
    } catch {
      report(error)
      return
    }
    disk.entriesSinceSnapshot = 0
    disk.bytesSinceSnapshot = 0
    try? disk.segment?.file.close()
    disk.segment = nil
    // Only now that the snapshot is durable may the segments it covers go.
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

  private func markDurable(upTo sequence: Int, idle: Bool) {
    let ready = shared.withLock { shared -> [Waiter] in
      shared.durableSequence = sequence
      if shared.stopped == nil {
        shared.status = idle && shared.pending.isEmpty ? .saved : .saving
      }
      let ready = shared.waiters.filter { $0.target <= sequence }.map(\.continuation)
      shared.waiters.removeAll { $0.target <= sequence }
      return ready
    }
    for waiter in ready { waiter.resume(returning: .success(())) }
  }

  private func fail(_ error: PersistenceError) {
    let failed = shared.withLock { shared -> [Waiter] in
      if shared.stopped == nil { shared.status = .failing(error) }
      // The flushes that asked for a retry get this failure as their answer; the next retry
      // waits for the next dispatch or flush, so what is durable stays as the error says.
      shared.flushRequested = false
      shared.holdsAfterFailure = true
      defer { shared.waiters.removeAll() }
      return shared.waiters.map(\.continuation)
    }
    for waiter in failed { waiter.resume(returning: .failure(error)) }
    report(error)
  }
}
