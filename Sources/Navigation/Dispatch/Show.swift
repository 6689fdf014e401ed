/// Shows a route element: `Show("detail")`, `Show("detail", context: todo.id)`.
///
/// The routables on the route are asked, topmost first, for `.show(identifier)` in their table;
/// the first that has it carries it out.
public struct Show: NavigationDispatchable {
  /// The element to show.
  public let identifier: RouteElementIdentifier
  /// What the factory of the element receives, such as the id of the todo to show.
  public let context: (any Sendable)?

  /// Creates a request to show `identifier`.
  public init(_ identifier: RouteElementIdentifier, context: (any Sendable)? = nil) {
    self.identifier = identifier
    self.context = context
  }

  /// The show action.
  public var navigationAction: NavigationAction { .show(identifier, context: context) }
}
