import SideEffects

/// Overloads that exist only to be rejected, with a message that names the fix.
///
/// Navigation requests are dispatched by `dispatch` overloads constrained to dependencies that
/// conform to ``NavigationProvider``. Without these, a store whose dependencies do not conform
/// answers `store.dispatch(Show("detail"))` with "requires that 'Show' conform to
/// 'SideEffect'", which points the wrong way. The constrained overloads are more specific, so
/// they win wherever they apply.
extension Store {
  /// Unavailable: the store's dependencies must conform to ``NavigationProvider``.
  @available(
    *, unavailable,
    message:
      "to dispatch a navigation request, the store's dependencies must conform to `NavigationProvider` (a `navigator` property)"
  )
  public func dispatch<Request: NavigationDispatchable>(_ request: Request) async throws {}
}

extension SideEffectContext {
  /// Unavailable: the store's dependencies must conform to ``NavigationProvider``.
  @available(
    *, unavailable,
    message:
      "to dispatch a navigation request, the store's dependencies must conform to `NavigationProvider` (a `navigator` property)"
  )
  public func dispatch<Request: NavigationDispatchable>(_ request: Request) async throws {}
}
