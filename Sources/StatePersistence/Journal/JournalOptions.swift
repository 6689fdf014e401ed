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
  /// as they are (see <doc:KeepingStateOnDisk>).
  public var schemaVersion: Int
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
    snapshotInterval: Int = 1_000, snapshotByteThreshold: Int = 4 << 20, schemaVersion: Int = 1
  ) {
    self.snapshotInterval = max(1, snapshotInterval)
    self.snapshotByteThreshold = max(1, snapshotByteThreshold)
    self.schemaVersion = schemaVersion
  }
}
