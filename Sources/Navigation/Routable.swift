/// A screen, or any object standing for one, that can be an element of the route.
///
/// The navigator keeps the routables on the route alive and releases each one as it leaves the
/// route. A routable that refers back to the store or the navigator should do so weakly or
/// `unowned`, so that leaving the route is enough to release it.
@MainActor
public protocol Routable: AnyObject {
  /// The identifier of this element in the route, such as `"detail"`.
  var routeIdentifier: RouteElementIdentifier { get }
}

/// A routable with a routing table: which ``NavigationRequest``s it answers, and how.
///
/// The navigator asks the routables on the route, topmost first, for a `Show(id)` request, and
/// the hidden routable followed by the routables beneath it for a `Hide(id)` request. The first
/// table holding the request handles it.
///
/// ```swift
/// extension ListScreen: RoutableWithConfiguration {
///   var routeIdentifier: RouteElementIdentifier { "list" }
///
///   var navigationConfiguration: [NavigationRequest: NavigationInstruction] {
///     [
///       .show("detail"): .push { context in DetailScreen(todoID: context as? Int) },
///       .hide("detail"): .pop,
///       .show("settings"): .presentModally { _ in SettingsScreen() },
///     ]
///   }
/// }
/// ```
///
/// The table is read once per request, so it may depend on the routable's current state.
@MainActor
public protocol RoutableWithConfiguration: Routable {
  /// The requests this routable handles, each with the instruction that carries it out.
  var navigationConfiguration: [NavigationRequest: NavigationInstruction] { get }
}
