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
    try await _store.dispatch(request)
  }

  /// Shows a sub-flow through the store's interceptors and awaits its result, or `nil` when it
  /// left the route without one; see ``ShowForResult``.
  ///
  /// ```swift
  /// let dueDate = try await context.dispatch(ShowForResult("due-date", of: Date.self))
  /// ```
  ///
  /// - Throws: ``NavigationError`` when the `Show` fails; `CancellationError` when the task is
  ///   cancelled, which hides the sub-flow.
  @discardableResult
  public func dispatch<Value: Sendable>(_ request: ShowForResult<Value>) async throws -> Value? {
    try await _store.dispatch(request)
  }
}
