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
