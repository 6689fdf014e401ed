/// Why a navigation request failed; it names the request and the route it was resolved against.
///
/// Navigation never crashes on a request it cannot carry out: it throws this error to whoever
/// awaited the dispatch, or reports it to `Store.onUnhandledError` when nobody did. An error
/// thrown by a factory is wrapped in one too (kind `.factoryFailed`), with the route and target,
/// and kept as ``underlyingError``.
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
    /// A factory threw ``NavigationError/underlyingError`` instead of building a routable.
    case factoryFailed
    /// `Finish` found no sub-flow with this identifier awaiting a result.
    case noSubFlow
    /// A sub-flow was finished with a result of another type than its caller awaits.
    case resultTypeMismatch(expected: String, got: String)
    /// `ChangeRoot` named a root that the navigator has no root factory for.
    case noRootFactory
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
  /// What a factory threw, for kind `.factoryFailed`.
  public let underlyingError: (any Error)?

  /// Creates an error.
  public init(
    _ kind: Kind, request: String, route: Route, navigationTarget: Route? = nil,
    detail: String? = nil, underlyingError: (any Error)? = nil
  ) {
    self.kind = kind
    self.request = request
    self.route = route
    self.navigationTarget = navigationTarget
    self.detail = detail
    self.underlyingError = underlyingError
  }

  /// Whether two errors describe the same failure; underlying errors compare by description.
  public static func == (lhs: NavigationError, rhs: NavigationError) -> Bool {
    lhs.kind == rhs.kind && lhs.request == rhs.request && lhs.route == rhs.route
      && lhs.navigationTarget == rhs.navigationTarget && lhs.detail == rhs.detail
      && lhs.underlyingError.map { "\($0)" } == rhs.underlyingError.map { "\($0)" }
  }

  /// Hashes the fields that ``==(_:_:)`` compares, but the underlying error.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    hasher.combine(request)
    hasher.combine(route)
    hasher.combine(navigationTarget)
    hasher.combine(detail)
  }

  /// A readable explanation that names the request and the current route.
  public var description: String {
    var text = "\(request) failed on route \(describe(route)): \(summary)"
    if let detail { text += " (\(detail))" }
    if let underlyingError { text += ": \(underlyingError)" }
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
    case .factoryFailed:
      "the factory threw"
    case .noSubFlow:
      "no sub-flow with this identifier awaits a result"
    case .resultTypeMismatch(let expected, let got):
      "the caller awaits a \(expected), not a \(got)"
    case .noRootFactory:
      "the navigator has no root factory for this identifier"
    }
  }
}
