/// The name of one element of a route, such as `"list"` or `"detail"`.
public typealias RouteElementIdentifier = String

/// The visible path of screens, from the root to the topmost, as their identifiers.
///
/// Pushed screens and modal screens are flattened into one path: `["list", "detail", "edit"]`
/// reads the same whether `"edit"` was pushed onto `"detail"` or presented over it.
public typealias Route = [RouteElementIdentifier]

/// A key of a routing table: a request to show or to hide one route element.
///
/// A ``RoutableWithConfiguration`` maps the requests it answers to the ``NavigationInstruction``
/// that carries them out.
public enum NavigationRequest: Hashable, Sendable, CustomStringConvertible {
  /// A request to make the element with this identifier visible.
  case show(RouteElementIdentifier)
  /// A request to remove the element with this identifier from the route.
  case hide(RouteElementIdentifier)

  /// The identifier the request is about.
  public var identifier: RouteElementIdentifier {
    switch self {
    case .show(let identifier), .hide(let identifier): identifier
    }
  }

  /// The request as written in a table, such as `.show("detail")`.
  public var description: String {
    switch self {
    case .show(let identifier): ".show(\"\(identifier)\")"
    case .hide(let identifier): ".hide(\"\(identifier)\")"
    }
  }
}

/// Describes `route` as `[list, detail]` in error messages.
func describe(_ route: Route) -> String {
  "[" + route.joined(separator: ", ") + "]"
}
