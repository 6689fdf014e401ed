import SideEffects

extension Store where Dependencies: NavigationProvider {
  /// Sends `request` through the interceptors to the navigator, and returns when every step of
  /// it is done.
  ///
  /// ```swift
  /// try await store.dispatch(Show("detail", context: todo.id))
  /// ```
  ///
  /// If an interceptor drops the request, or replaces it with something that is not a
  /// navigation request, the call returns without navigating. When the state adopts
  /// ``RouteHoldingState``, `state.route` follows every change of the route.
  ///
  /// - Throws: ``NavigationError`` when the navigator cannot carry out the request (a factory's
  ///   own error comes wrapped in one, kind `.factoryFailed`), or what a `.custom` instruction
  ///   threw.
  public func dispatch<Request: NavigationDispatchable>(_ request: Request) async throws {
    try await dispatchNavigation(request, to: dependencies.navigator)
  }
}

extension Store where Dependencies: NavigationProvider {
  /// Shows a sub-flow through the interceptors and awaits its result: the value it finished
  /// with, or `nil` when it left the route without one.
  ///
  /// ```swift
  /// let confirmed = try await store.dispatch(ShowForResult("confirm", of: Bool.self)) ?? false
  /// ```
  ///
  /// If an interceptor drops the request or replaces it, the call returns `nil` (a replacing
  /// navigation request still runs). See ``ShowForResult`` for every outcome.
  ///
  /// - Throws: ``NavigationError`` when the `Show` fails; `CancellationError` when the awaiting
  ///   task is cancelled, which hides the sub-flow.
  @discardableResult
  public func dispatch<Value: Sendable>(_ request: ShowForResult<Value>) async throws -> Value? {
    try await dispatchForResult(request, to: dependencies.navigator)
  }
}

extension Store {
  /// The path of an awaited sub-flow: through the interceptors, then into the navigator's queue,
  /// resuming the caller once with its result.
  func dispatchForResult<Value: Sendable>(
    _ request: ShowForResult<Value>, to navigator: Navigator
  ) async throws -> Value? {
    navigator.mirrorRouteIfPossible(into: self)
    return try await navigator.awaitSubFlow(request.identifier, of: Value.self) { flow in
      sendThroughInterceptors(request, expecting: { $0 as? any NavigationDispatchable }) {
        outcome in
        guard case .reached(let final) = outcome else {
          flow.resolve(.success(nil))
          return
        }
        if let typed = final as? ShowForResult<Value> {
          navigator.start(flow, showing: typed.identifier, context: typed.context)
        } else {
          navigator.submit(final.navigationAction) { result in
            flow.resolve(result.map { nil })
          }
        }
      }
    }
  }

  /// The one path of an awaited navigation request: through the interceptors, then into the
  /// navigator's queue the moment it leaves the chain (so requests keep the order in which they
  /// left it), resuming the caller once with the navigator's outcome.
  ///
  /// A request that an interceptor drops, or replaces by something that is not a navigation
  /// request, resumes the caller normally; the store runs the replacement.
  func dispatchNavigation(_ request: any NavigationDispatchable, to navigator: Navigator)
    async throws
  {
    navigator.mirrorRouteIfPossible(into: self)
    try await withCheckedThrowingContinuation { continuation in
      let resumer = ResolveOnce<Result<Void, any Error>>(whenReleased: .success(())) {
        continuation.resume(with: $0)
      }
      sendThroughInterceptors(request, expecting: { $0 as? any NavigationDispatchable }) {
        outcome in
        guard case .reached(let final) = outcome else {
          resumer.resolve(.success(()))
          return
        }
        navigator.submit(final.navigationAction) { resumer.resolve($0) }
      }
    }
  }
}
