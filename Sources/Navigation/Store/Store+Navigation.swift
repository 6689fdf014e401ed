import Synchronization

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
  func dispatchNavigation(_ request: any NavigationDispatchable, to navigator: Navigator)
    async throws
  {
    navigator.mirrorRouteIfPossible(into: self)
    try await withCheckedThrowingContinuation { continuation in
      let resumer = ResumeOnce(continuation)
      intercept(request) { final in
        guard let final = final as? any NavigationDispatchable else { return false }
        navigator.submit(final.navigationAction) { resumer.resume(with: $0) }
        return true
      }
    }
  }
}

/// Resumes a continuation exactly once: with the navigator's outcome, or, when an interceptor
/// dropped the request and nothing holds this any more, normally.
final class ResumeOnce: Sendable {
  private let continuation: Mutex<CheckedContinuation<Void, any Error>?>

  init(_ continuation: CheckedContinuation<Void, any Error>) {
    self.continuation = Mutex(continuation)
  }

  deinit {
    take()?.resume()
  }

  func resume(with result: Result<Void, any Error>) {
    take()?.resume(with: result)
  }

  private func take() -> CheckedContinuation<Void, any Error>? {
    continuation.withLock { stored in
      defer { stored = nil }
      return stored
    }
  }
}
