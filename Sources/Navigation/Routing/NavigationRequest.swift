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
