/// An updater that the store has applied, as seen by ``Store/observeUpdates(_:)``.
public struct AppliedUpdate<S: State>: Sendable {
  /// The updater, as it reached the store after any interceptor replaced it.
  public let updater: any StateUpdater<S>
  /// What dispatched it, if known.
  public let cause: DispatchCause?
  /// The position of this update among every update this store has applied, from 1.
  public let sequence: UInt64

  @usableFromInline
  init(updater: any StateUpdater<S>, cause: DispatchCause?, sequence: UInt64) {
    self.updater = updater
    self.cause = cause
    self.sequence = sequence
  }
}
