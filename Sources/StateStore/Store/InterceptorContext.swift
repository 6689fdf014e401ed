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
  /// returns, the state after it.
  ///
  /// - Precondition: The store has not been released. It never is while it runs the
  ///   interceptor's body or `onStart`; only a context kept beyond them (by a notification
  ///   observer or a task that `onStart` set up) can outlive its store. Such code reads
  ///   ``stateIfStoreIsAlive`` instead. A released store has no state to give, and a made-up
  ///   one (`S()`, which this returned before) would be a state the app never had, so reading
  ///   it stops the process with a message that says so, as an `unowned` reference would.
  public var state: S {
    guard let state = getState() else {
      preconditionFailure(
        "StateStore: read InterceptorContext<\(S.self)>.state after its store was released. "
          + "A context kept beyond the interceptor's body or onStart can outlive its store: "
          + "read stateIfStoreIsAlive there, which is nil once the store is gone.")
    }
    return state
  }

  /// The store's current state, or `nil` once the store has been released: for code that
  /// keeps the context beyond the interceptor's body, such as a notification observer set up
  /// in `onStart`.
  public var stateIfStoreIsAlive: S? { getState() }

  /// Queues `dispatchable`; it goes through every interceptor after the current dispatch.
  public func dispatch(_ dispatchable: any Dispatchable) {
    enqueue(dispatchable)
  }
}
