/// Sets `state.route`; the navigator dispatches it after each change of the route.
///
/// It is `Codable`, so an action log records and replays it like any updater.
public struct SetRoute<S: RouteHoldingState>: StateUpdater, Codable, Hashable {
  /// The route to store.
  public var route: Route

  /// Creates the updater.
  public init(_ route: Route) {
    self.route = route
  }

  /// Stores the route in `state`.
  public func updateState(_ state: inout S) {
    state.route = route
  }
}
