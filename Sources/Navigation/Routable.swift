/// A screen, or any object standing for one, that can be an element of the route.
///
/// The navigator keeps the routables on the route alive and releases each one as it leaves the
/// route. A routable that refers back to the store or the navigator should do so weakly or
/// `unowned`, so that leaving the route is enough to release it.
@MainActor
public protocol Routable: AnyObject {
  /// The identifier of this element in the route, such as `"detail"`.
  var routeIdentifier: RouteElementIdentifier { get }

  /// Switches this container's child from the branch `old` to the branch `new` in one step, as
  /// a tab bar does; returns the routable of the new branch, or `nil` when this routable is not
  /// such a container.
  ///
  /// A `Navigate` asks the routable just below the first element that differs: when it answers,
  /// the old branch (with everything above it) is replaced by the returned routable, instead of
  /// being hidden and the new one shown. The default answers `nil`.
  ///
  /// - Parameters:
  ///   - old: The branch on the route now, just above this routable.
  ///   - new: The branch to switch to.
  ///   - context: The context `Navigate` has for `new`.
  func change(
    from old: RouteElementIdentifier, to new: RouteElementIdentifier, context: (any Sendable)?
  ) throws -> (any Routable)?
}

extension Routable {
  /// Not a container: answers `nil`, so a `Navigate` hides the old branch and shows the new one.
  public func change(
    from old: RouteElementIdentifier, to new: RouteElementIdentifier, context: (any Sendable)?
  ) throws -> (any Routable)? {
    nil
  }
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
