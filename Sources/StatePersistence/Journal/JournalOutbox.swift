import StateStore
import Synchronization

/// A journaled store's side of the journal, on the store's actor: the numbering of its
/// updaters, and the updaters not known to be written, the newest of which wait in a batch
/// that is handed to the writer whole.
///
/// Its update observer holds it strongly (it holds neither the store nor the
/// ``JournaledStore``, so nothing is kept alive in a cycle), and every dispatch appends to the
/// batch on the actor, with no lock. The batch is handed to the writer in one step (one lock,
/// one scheduling of its queue): when it holds ``JournalLedger/batchLimit`` entries, at the end of the
/// actor's current job (a task scheduled by the batch's first entry), and before anything
/// that waits for the writer (a flush, a close, the exclusive lock). Dispatch order is kept:
/// batches are handed over in order, and the writer writes them in order.
@MainActor
@usableFromInline
final class JournalOutbox<S: State & Codable, Dependencies: Sendable> {
  @usableFromInline let writer: JournalWriter<S>
  @usableFromInline let inbox: HeardInbox<S, Dependencies>
  /// Read only when the writer asks for a snapshot: the state just after an entry.
  @usableFromInline weak var store: Store<S, Dependencies>?
  /// Everything a dispatch changes, in one value: one access per dispatch.
  @usableFromInline var ledger: JournalLedger<S>

  init(writer: JournalWriter<S>, inbox: HeardInbox<S, Dependencies>, lastSequence: Int) {
    self.writer = writer
    self.inbox = inbox
    self.ledger = JournalLedger(lastSequence: lastSequence)
  }

  /// Journals the updater the store just applied.
  ///
  /// Inlinable, so that it runs as code specialised for the application's state.
  @inlinable
  func record(_ update: AppliedUpdate<S>) {
    var snapshot: EntryExtras<S>?
    // Not for another process's updater, which is not journaled: its entry would not carry it.
    if writer.wantsSnapshot.load(ordering: .relaxed) && !ledger.expectsOtherProcess {
      // Once every snapshot interval: the writer asked for the state after the next entry.
      snapshot = takeSnapshot()
    }
    switch ledger.record(update, snapshot: snapshot) {
    case .buffered: break
    case .firstOfBatch: scheduleHandOff()
    case .full: handOff()
    case .numberingUsedUp(let number):
      stopNumbering(at: number)
    }
  }

  /// The store's state, for the entry being recorded to carry as the writer asked.
  @usableFromInline
  func takeSnapshot() -> EntryExtras<S>? {
    writer.wantsSnapshot.store(false, ordering: .relaxed)
    guard let state = store?.state else { return nil }
    return EntryExtras(snapshot: state, undoes: nil, heardThrough: ledger.heardThrough)
  }

  /// Stops the writer at this store's entry `number`: the journal's numbering is used up.
  @usableFromInline
  func stopNumbering(at number: Int) {
    writer.stop(
      .closed(reason: "the journal's numbering is used up at entry \(Int.max - 1)"), at: number)
  }

  /// Hands the waiting batch to the writer at the end of the actor's current job.
  @usableFromInline
  func scheduleHandOff() {
    Task {
      self.ledger.handOffIsScheduled = false
      self.handOff()
    }
  }

  /// Hands the waiting batch, if any, to the writer now, and forgets the updaters the writer
  /// wrote.
  ///
  /// Inlinable, so that it runs specialised for the application's state: generic, it looked
  /// the batches' type metadata up at every hand-off.
  @inlinable
  func handOff() {
    guard let batch = ledger.takeBatch() else { return }
    // Entries written by the last hand-off's count, except those a `Heard` still on its way
    // needs for a rebase (read in this order: a `Heard` posted after the count was read
    // names at least it); the writer frees them.
    let durable = ledger.durableNumber
    let written = ledger.dropWritten(upTo: min(durable, inbox.oldestLastNumber ?? durable))
    ledger.durableNumber = writer.enqueue(batch, retiring: written)
  }
}

/// What ``JournalLedger/record(_:snapshot:)`` asks its outbox to do.
@usableFromInline
enum RecordOutcome {
  /// Nothing: the entry waits in the batch, or was not journaled.
  case buffered
  /// Schedule the batch's hand-off: it is the batch's first entry.
  case firstOfBatch
  /// Hand the batch over now: it is full.
  case full
  /// Stop the writer at this store's entry `number`: the journal's numbering is used up.
  case numberingUsedUp(number: Int)
}

/// The numbering of a journaled store's updaters, and those not known to be written, oldest
/// first: a rebase applies them again after other processes' entries.
@usableFromInline
struct JournalLedger<S: State & Codable> {
  /// How many entries a batch holds before it is handed to the writer at once: a bound on
  /// what a long burst of dispatches keeps from the writer.
  @usableFromInline static var batchLimit: Int { 256 }

  /// How many updaters the state holds, counted from the journal's first entry.
  @usableFromInline var lastSequence: Int
  /// How many updaters this store journaled: the last one's ``PendingEntry/number``.
  @usableFromInline var journaledCount = 0
  /// The number of this store's last journaled updater that was not taken back: what a flush
  /// waits for.
  @usableFromInline var flushTarget = 0
  /// The journal's last entry that the state holds, as last heard from the writer.
  @usableFromInline var heardThrough: Int
  /// The entry that the next journaled updater reverts, while an undo dispatches its inverse.
  @usableFromInline var undoing: Int?
  /// Whether the next update observed is one that another process appended.
  @usableFromInline var expectsOtherProcess = false
  /// Whether the updater being applied was appended by another process.
  @usableFromInline var appliesOtherProcess = false
  /// The last of this store's entries known to be durable, as of the last hand-off.
  @usableFromInline var durableNumber = 0
  /// Whether a task will hand the batch over at the end of the actor's current job.
  @usableFromInline var handOffIsScheduled = false
  /// Batches handed to the writer whose entries are not known to be written, oldest first.
  @usableFromInline var handed: [ArraySlice<PendingEntry<S>>] = []
  /// The entries not yet handed to the writer, oldest first.
  @usableFromInline var batch: [PendingEntry<S>] = []

  init(lastSequence: Int) {
    self.lastSequence = lastSequence
    self.heardThrough = lastSequence
  }

  /// Numbers the updater just applied and puts it in the batch, unless it is another
  /// process's, which is in the journal already.
  @inlinable
  mutating func record(_ update: AppliedUpdate<S>, snapshot: EntryExtras<S>?) -> RecordOutcome {
    if expectsOtherProcess {
      expectsOtherProcess = false
      appliesOtherProcess = true
      return .buffered
    }
    appliesOtherProcess = false
    guard lastSequence < Int.max - 1 else {
      // The numbering is used up (a journal, or a hostile snapshot, at entry Int.max - 1). The
      // updater stays in memory, unjournaled, but is counted as this store's, so that a flush
      // waiting for it fails with this error (the writer stops at its number) and
      // `withExclusiveAccess` takes it back: a change is never reported durable unwritten.
      if lastSequence < Int.max { lastSequence += 1 }
      journaledCount += 1
      flushTarget = journaledCount
      return .numberingUsedUp(number: journaledCount)
    }
    lastSequence += 1
    journaledCount += 1
    flushTarget = journaledCount
    var extras = snapshot
    if let undoes = undoing {
      extras = markingUndo(of: undoes, snapshot: snapshot)
      undoing = nil
    }
    batch.append(
      PendingEntry(
        updater: update.updater, cause: update.cause, number: journaledCount, extras: extras))
    if batch.count == 1 && !handOffIsScheduled {
      handOffIsScheduled = true
      return .firstOfBatch
    }
    return batch.count >= Self.batchLimit ? .full : .buffered
  }

  /// What the entry an undo dispatched carries: the mark, and any snapshot.
  @usableFromInline
  func markingUndo(of undoes: Int, snapshot: EntryExtras<S>?) -> EntryExtras<S> {
    EntryExtras(
      snapshot: snapshot?.snapshot, undoes: undoes,
      heardThrough: snapshot?.heardThrough ?? heardThrough)
  }

  /// Moves the waiting batch to the handed ones and returns it, or `nil` when none waits.
  @inlinable
  mutating func takeBatch() -> [PendingEntry<S>]? {
    guard !batch.isEmpty else { return nil }
    var taken: [PendingEntry<S>] = []
    // The next batch starts with room for as many entries as this one had.
    taken.reserveCapacity(batch.count)
    swap(&taken, &batch)
    handed.append(taken[...])
    return taken
  }

  /// How many updaters are not known to be written.
  ///
  /// - Complexity: O(batches).
  var unwrittenCount: Int {
    handed.reduce(batch.count) { $0 + $1.count }
  }

  /// Whether every updater is known to be written.
  ///
  /// - Complexity: O(batches).
  var allWritten: Bool { batch.isEmpty && handed.allSatisfy(\.isEmpty) }

  /// The updaters not known to be written, numbered from `first` on, in order.
  ///
  /// - Complexity: O(updaters not known to be written).
  func unwrittenUpdaters(from first: Int = 0) -> [any StateUpdater<S>] {
    var updaters: [any StateUpdater<S>] = []
    for entries in handed + [batch[...]] {
      for entry in entries where entry.number >= first { updaters.append(entry.updater) }
    }
    return updaters
  }

  /// Forgets this store's updaters numbered `taken`, which will never be written.
  ///
  /// - Complexity: O(updaters not known to be written).
  mutating func removeUnwritten(numbered taken: Range<Int>) {
    handed = handed.map { $0.filter { !taken.contains($0.number) }[...] }
    handed.removeAll { $0.isEmpty }
    batch.removeAll { taken.contains($0.number) }
  }

  /// Forgets this store's updaters up to `number`, written to the journal.
  ///
  /// - Returns: The batches written whole, for the writer to free.
  /// - Complexity: O(batches).
  @inlinable @discardableResult
  mutating func dropWritten(upTo number: Int) -> [ArraySlice<PendingEntry<S>>] {
    var written = 0
    while written < handed.count, (handed[written].last?.number ?? .min) <= number {
      written += 1
    }
    let dropped = Array(handed[..<written])
    handed.removeFirst(written)
    if let first = handed.first, let oldest = first.first, oldest.number <= number {
      handed[0] = first.drop { $0.number <= number }
    }
    return dropped
  }
}
