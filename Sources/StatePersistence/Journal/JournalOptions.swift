import Foundation

/// How a ``JournaledStore`` compacts its journal and what schema version it writes.
public struct JournalOptions: Sendable {
  /// How many entries may follow the snapshot before a new snapshot is taken.
  public var snapshotInterval: Int
  /// How many bytes of journal may follow the snapshot before a new snapshot is taken.
  public var snapshotByteThreshold: Int
  /// The version of the state's and the updaters' shape.
  ///
  /// It is written in every journal segment and snapshot. Files with a newer version are refused with
  /// ``PersistenceError/newerSchema(file:found:supported:)``; files with an older one are read
  /// through ``migrations``, and opening the store for writing upgrades them (see
  /// <doc:KeepingStateOnDisk>).
  public var schemaVersion: Int
  /// How files of older schema versions are read: renamed updaters, changed payloads, a changed
  /// snapshot shape.
  public var migrations: Migrations
  /// Whether each entry carries the time it was journaled (`"time"`, seconds since 1970 to the
  /// millisecond), as ``HistoryEntry/time`` shows it; turn it off for journals that must be the
  /// same bytes every run, such as test fixtures.
  ///
  /// The writer reads the clock once per batch, off the store's actor, when it takes the batch:
  /// moments after the updaters were applied (while the previous batch was written).
  public var recordsTime: Bool

  /// The wall clock each entry's time (``recordsTime``) is read from: the system's by default;
  /// an app that injects its own clock (a test's fixed time) gives it here.
  ///
  /// The writer calls it once per batch, off the store's actor.
  public var now: @Sendable () -> Date = { Date() }

  /// Whether snapshots leave the journal segments they cover in place, so that
  /// ``JournaledStore/history()`` and ``JournaledStore/undo()`` reach back to the journal's
  /// first entry instead of the last snapshot.
  ///
  /// Off by default: the journal then grows without bound, and history and undo replay it
  /// from its first entry, O(journal), while opening still reads only the snapshot and the
  /// entries after it. A directory whose first segment another process already removed (one
  /// that opened it with this off) gives history from the last snapshot, as without it.
  public var keepsFullHistory = false

  /// Called once, with the directory, each time the store has waited about a second for
  /// another process's lock.
  ///
  /// The store goes on waiting, whether to open, append, read what others appended, or run
  /// ``JournaledStore/withExclusiveAccess(_:)``. `nil`, the default, waits silently.
  ///
  /// A command-line tool says there why it seems stuck (`todo-cli` prints "waiting for another
  /// todo-cli using …"). It is called on the journal's queue, never on the store's actor. With
  /// it, the lock is first tried without blocking, with short pauses between tries.
  public var onLockWait: (@Sendable (_ directory: String) -> Void)?

  /// How often the store looks for updaters other processes appended to the directory; `nil`
  /// never looks on its own (call ``JournaledStore/catchUp()``).
  ///
  /// 250 milliseconds by default: another process's updaters reach this store within a second.
  /// Looking costs a few system calls (`flock`, listing the directory, `fstat`) when nothing
  /// changed.
  public var pollInterval: Duration? = .milliseconds(250)
  /// The clock ``pollInterval`` is measured on; tests inject one they advance by hand.
  public var clock: any Clock<Duration> = ContinuousClock()

  /// Creates options; by default a snapshot is taken every 1,000 entries or 4 MiB of journal.
  public init(
    snapshotInterval: Int = 1_000, snapshotByteThreshold: Int = 4 << 20, schemaVersion: Int = 1,
    migrations: Migrations = Migrations(), recordsTime: Bool = true
  ) {
    self.recordsTime = recordsTime
    self.migrations = migrations
    self.snapshotInterval = max(1, snapshotInterval)
    self.snapshotByteThreshold = max(1, snapshotByteThreshold)
    self.schemaVersion = schemaVersion
  }
}
