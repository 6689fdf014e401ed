/// A state that holds the current route, so that view models can select it and an action log
/// records it.
///
/// When the store's state adopts it, the navigator dispatches a ``SetRoute`` after each change
/// of the route. After replaying a log, `Navigate(to: state.route)` rebuilds the screens.
///
/// ```swift
/// struct AppState: RouteHoldingState {
///   var todos: [Todo] = []
///   var route: Route = ["list"]
/// }
/// ```
public protocol RouteHoldingState: State {
  /// The route, as the navigator last reported it.
  var route: Route { get set }
}

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
