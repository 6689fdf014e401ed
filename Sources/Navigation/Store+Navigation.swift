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
  /// - Throws: ``NavigationError`` when the navigator cannot carry out the request, or what a
  ///   factory or `.custom` instruction threw.
  public func dispatch<Request: NavigationDispatchable>(_ request: Request) async throws {
    try await dispatchNavigation(request, to: dependencies.navigator)
  }
}

extension Store {
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
