/// An updater that the store has applied, as seen by ``Store/observeUpdates(_:)``.
public struct AppliedUpdate<S: State>: Sendable {
  /// The updater, as it reached the store after any interceptor replaced it.
  public let updater: any StateUpdater<S>
  /// What dispatched it, if known.
  public let cause: DispatchCause?
  /// The position of this update among every update this store has applied, from 1.
  public let sequence: UInt64
  /// The file and line of the `dispatch` call that sent it, if known.
  ///
  /// `nil` for an updater that no `dispatch` call of the application's sent, such as one an
  /// interceptor dispatched through its context or one the navigator mirrors.
  public let site: DispatchSite?

  @usableFromInline
  init(
    updater: any StateUpdater<S>, cause: DispatchCause?, sequence: UInt64,
    site: DispatchSite? = nil
  ) {
    self.updater = updater
    self.cause = cause
    self.sequence = sequence
    self.site = site
  }
}
