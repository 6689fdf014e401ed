/// Goes to a whole route: `Navigate(to: ["list", "detail"])`.
///
/// Hides down to the common prefix of the current route and `route`, topmost first, then shows
/// each missing element in turn. Navigating to the current route does nothing. After a replay,
/// `Navigate(to: store.state.route)` rebuilds the screens.
public struct Navigate: NavigationDispatchable {
  /// The route to go to; it starts at the root.
  public let route: Route
  /// The context for the factory of each element shown, by identifier.
  public let contexts: [RouteElementIdentifier: any Sendable]

  /// Creates a request to go to `route`.
  public init(to route: Route, contexts: [RouteElementIdentifier: any Sendable] = [:]) {
    self.route = route
    self.contexts = contexts
  }

  /// The navigate action.
  public var navigationAction: NavigationAction { .navigate(to: route, contexts: contexts) }
}
