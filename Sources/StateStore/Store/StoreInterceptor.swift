/// A step between a dispatch and the store: it can watch, pass on, drop, replace or add dispatches.
///
/// Interceptors run in the order given to the store: the first sees every dispatchable first.
/// Each gets the dispatchable, a context and `next`, which hands a dispatchable to the following
/// interceptor (and, after the last, to the store):
///
/// ```swift
/// let logger = StoreInterceptor<AppState> { dispatchable, context, next in
///   let before = context.state
///   next(dispatchable)  // applied and notified when this returns
///   print(type(of: dispatchable), before, "→", context.state)
/// }
/// ```
///
/// - Not calling `next` drops the dispatchable; calling it with another value replaces it.
/// - `context.dispatch(_:)` adds a dispatch. It is queued and runs, through every interceptor,
///   after the current one has finished notifying.
public struct StoreInterceptor<S: State>: Sendable {
  /// Hands a dispatchable to the next interceptor, or to the store after the last one.
  public typealias Next = @MainActor (_ dispatchable: any Dispatchable) -> Void

  /// The interceptor's body.
  public typealias Body =
    @MainActor @Sendable (
      _ dispatchable: any Dispatchable, _ context: InterceptorContext<S>, _ next: Next
    ) -> Void

  let onStart: (@MainActor @Sendable (InterceptorContext<S>) -> Void)?
  let body: Body

  /// Creates an interceptor.
  ///
  /// - Parameters:
  ///   - onStart: Runs once when the store is created, in interceptor order; it may dispatch.
  ///   - body: Runs for every dispatchable.
  public init(
    onStart: (@MainActor @Sendable (_ context: InterceptorContext<S>) -> Void)? = nil,
    _ body: @escaping Body
  ) {
    self.onStart = onStart
    self.body = body
  }
}

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

/// A dispatchable that is not an updater and starts itself on a store: side effects, navigation.
///
/// Modules built on the store (SideEffects, Navigation) conform their dispatchables to this
/// protocol so that a dispatchable reaching the end of the interceptor chain without being awaited
/// (for example one dispatched by an interceptor) still runs. Errors go to
/// ``Store/onUnhandledError``.
public protocol ExecutableDispatchable: Dispatchable {
  /// Starts this dispatchable on `store` without awaiting it.
  @MainActor func start<S: State, D: Sendable>(in store: Store<S, D>)
}

/// The error a store reports when a dispatchable reaches it that nothing knows how to run.
public struct UnhandledDispatchableError: Error, CustomStringConvertible {
  /// The type of the dispatchable.
  public let typeName: String

  /// A readable explanation.
  public var description: String {
    "\(typeName) reached the store, but it is neither a StateUpdater of this store's state "
      + "nor an ExecutableDispatchable (a side effect or navigation request)"
  }
}
