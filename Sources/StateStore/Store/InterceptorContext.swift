/// What an interceptor can see of and do to the store.
@MainActor
public struct InterceptorContext<S: State> {
  private let getState: @MainActor () -> S?
  private let enqueue: @MainActor (any Dispatchable) -> Void
  private let retain: @MainActor (AnyObject) -> Void

  init(
    getState: @escaping @MainActor () -> S?,
    enqueue: @escaping @MainActor (any Dispatchable) -> Void,
    retain: @escaping @MainActor (AnyObject) -> Void
  ) {
    self.getState = getState
    self.enqueue = enqueue
    self.retain = retain
  }

  /// Makes the store keep `resource` alive, and release it when the store is released.
  ///
  /// For interceptors that hold something per store (notification registrations): owned by
  /// the store, it goes away with that store whatever keeps the interceptor value.
  package func keepAliveWithStore(_ resource: AnyObject) {
    retain(resource)
  }

  /// The store's current state.
  ///
  /// Read before calling `next`, it is the state before the dispatchable; read after `next`
  /// returns, the state after it. A fresh `S()` if the store has been released.
  public var state: S { getState() ?? S() }

  /// Queues `dispatchable`; it goes through every interceptor after the current dispatch.
  public func dispatch(_ dispatchable: any Dispatchable) {
    enqueue(dispatchable)
  }
}
