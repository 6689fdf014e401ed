import SideEffects

extension SideEffectContext where D: NavigationProvider {
  /// Sends `request` through the store's interceptors to the navigator, and returns when every
  /// step of it is done.
  ///
  /// ```swift
  /// try await context.dispatch(Show("detail", context: todo.id))
  /// ```
  ///
  /// It compiles only when the store's dependencies conform to ``NavigationProvider``.
  ///
  /// - Throws: ``NavigationError`` when the navigator cannot carry out the request.
  public func dispatch<Request: NavigationDispatchable>(_ request: Request) async throws {
    try await store.dispatch(request)
  }
}
