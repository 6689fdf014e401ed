import SideEffects

extension StoreHandle where Dependencies: NavigationProvider {
  /// Sends `request` through the store's interceptors to the navigator, and returns when every
  /// step of it is done, as `Store.dispatch(_:)` does.
  ///
  /// - Throws: `StoreReleasedError` once the store is released, or ``NavigationError``.
  public func dispatch<Request: NavigationDispatchable>(_ request: Request) async throws {
    try await withStore { try await $0.dispatch(request) }
  }

  /// Shows a sub-flow and awaits its result, as `Store.dispatch(_:)` does; see
  /// ``ShowForResult``.
  ///
  /// - Throws: `StoreReleasedError` once the store is released, ``NavigationError``, or
  ///   `CancellationError`.
  @discardableResult
  public func dispatch<Value: Sendable>(_ request: ShowForResult<Value>) async throws -> Value? {
    try await withStore { try await $0.dispatch(request) }
  }
}
