/// Where a persisted store or value stands with the disk.
public enum PersistenceStatus: Sendable, Hashable {
  /// Everything applied so far is durable.
  case saved
  /// Changes are waiting to be written; none has failed.
  case saving
  /// The last write failed with this error and will be tried again; what is in memory is ahead
  /// of the disk until it succeeds.
  case failing(PersistenceError)
  /// Nothing more will be written, because of this error; what is on disk stays a consistent
  /// prefix of what was applied.
  case stopped(PersistenceError)
}
