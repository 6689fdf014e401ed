/// Replaces the root, and with it the whole route: `ChangeRoot(to: "home")` after a login.
///
/// The navigator builds the new root with its root factory for the identifier (see
/// `Navigator.init(root:rootFactories:)`); every routable of the old route is released. The
/// route becomes `[identifier]`.
public struct ChangeRoot: NavigationDispatchable {
  /// The identifier of the new root.
  public let identifier: RouteElementIdentifier
  /// What the root factory receives.
  public let context: (any Sendable)?

  /// Creates a request to make `identifier` the root.
  public init(to identifier: RouteElementIdentifier, context: (any Sendable)? = nil) {
    self.identifier = identifier
    self.context = context
  }

  /// The change-root action.
  public var navigationAction: NavigationAction { .changeRoot(identifier, context: context) }
}
