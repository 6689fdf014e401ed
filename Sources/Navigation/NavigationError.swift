/// Why a navigation request failed; it names the request and the route it was resolved against.
///
/// Navigation never crashes on a request it cannot carry out: it throws this error to whoever
/// awaited the dispatch, or reports it to `Store.onUnhandledError` when nobody did.
public struct NavigationError: Error, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Hashable, Sendable {
    /// No routable asked had the request in its routing table.
    case unhandled
    /// The identifier is not on the route.
    case notOnRoute
    /// The request would remove the root, which always stays.
    case cannotHideRoot
    /// `pop` was asked to remove the first routable of a modal level; dismiss the modal instead.
    case cannotPopFirstOfModal
    /// `dismissModally` found no modal level to dismiss.
    case nothingToDismiss
    /// A factory built a routable whose identifier is not the one requested.
    case identifierMismatch(built: RouteElementIdentifier)
    /// A custom instruction tried to leave the navigator without its root or with an empty level.
    case invalidLevels
    /// The step ran but did not do what the request asked, such as a `Hide` that left the
    /// routable on the route.
    case incomplete
    /// `Navigate` was given a route that is empty or does not start at the root.
    case invalidTarget
    /// The store's dependencies do not provide a navigator.
    case noNavigator
  }

  /// What went wrong.
  public let kind: Kind
  /// The request being resolved, written as `Show("detail")`, `Hide("detail")` or
  /// `Navigate(to: [list, detail])`.
  public let request: String
  /// The route when the error happened: after a failed `Navigate` step, the route that the
  /// completed steps left.
  public let route: Route
  /// For a failed step of a `Navigate`, the route it was going to.
  public internal(set) var navigationTarget: Route?
  /// More detail, such as which routable handled the request.
  public let detail: String?

  /// Creates an error.
  public init(
    _ kind: Kind, request: String, route: Route, navigationTarget: Route? = nil,
    detail: String? = nil
  ) {
    self.kind = kind
    self.request = request
    self.route = route
    self.navigationTarget = navigationTarget
    self.detail = detail
  }

  /// A readable explanation that names the request and the current route.
  public var description: String {
    var text = "\(request) failed on route \(describe(route)): \(summary)"
    if let detail { text += " (\(detail))" }
    if let navigationTarget {
      text += "; Navigate(to: \(describe(navigationTarget))) stopped here"
    }
    return text
  }

  private var summary: String {
    switch kind {
    case .unhandled:
      "no routable asked has this request in its navigationConfiguration"
    case .notOnRoute:
      "the identifier is not on the route"
    case .cannotHideRoot:
      "the root cannot be hidden"
    case .cannotPopFirstOfModal:
      "pop cannot remove the first routable of a modal level; use dismissModally"
    case .nothingToDismiss:
      "there is no modal to dismiss"
    case .identifierMismatch(let built):
      "the factory built a routable identified \"\(built)\""
    case .invalidLevels:
      "the new levels must keep the root first and contain no empty level"
    case .incomplete:
      "the instruction ran but did not carry out the request"
    case .invalidTarget:
      "a route to navigate to must start at the root"
    case .noNavigator:
      "the store's Dependencies do not conform to NavigationProvider"
    }
  }
}
