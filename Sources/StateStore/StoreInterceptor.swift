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
