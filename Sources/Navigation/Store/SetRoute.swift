/// Sets `state.route` (and, for a ``RouteContextHoldingState``, `state.routeContexts`); the
/// navigator dispatches it after each change of the route.
///
/// It is `Codable`, so an action log records and replays it like any updater. `contexts` is
/// encoded only when present, so logs written before it existed still decode, and a state that
/// holds no contexts records exactly what it did before.
public struct SetRoute<S: RouteHoldingState>: StateUpdater, Codable, Hashable {
  /// The route to store.
  public var route: Route
  /// The encoded context of each element, for a ``RouteContextHoldingState``.
  public var contexts: RouteContexts?

  /// Creates the updater.
  public init(_ route: Route, contexts: RouteContexts? = nil) {
    self.route = route
    self.contexts = contexts
  }

  /// Stores the route, and the contexts when the state holds them.
  public func updateState(_ state: inout S) {
    state.route = route
    guard let contexts, var holding = state as? any RouteContextHoldingState else { return }
    holding.routeContexts = contexts
    if let updated = holding as? S { state = updated }
  }
}
