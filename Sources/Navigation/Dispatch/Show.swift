/// Shows a route element: `Show("detail")`, `Show("detail", context: todo.id)`; or several in
/// turn, as one request: `Show(["tabs", "inbox"])`.
///
/// The routables on the route are asked, topmost first, for `.show(identifier)` in their table;
/// the first that has it carries it out. With several identifiers each is shown in turn, as
/// Tempura's `Show([...])` does, and the first that fails stops the request.
public struct Show: NavigationDispatchable {
  /// Every element to show, in order.
  public let identifiers: [RouteElementIdentifier]
  /// What the factory of the element receives, such as the id of the todo to show.
  public let context: (any Sendable)?

  /// Creates a request to show `identifier`.
  public init(_ identifier: RouteElementIdentifier, context: (any Sendable)? = nil) {
    self.identifiers = [identifier]
    self.context = context
  }

  /// Creates a request to show each of `identifiers` in turn; every factory receives `context`.
  ///
  /// An empty list shows nothing.
  public init(_ identifiers: [RouteElementIdentifier], context: (any Sendable)? = nil) {
    self.identifiers = identifiers
    self.context = context
  }

  /// The element to show; with several, the last one; `nil` for an empty list, which shows
  /// nothing.
  public var identifier: RouteElementIdentifier? { identifiers.last }

  /// The show action.
  public var navigationAction: NavigationAction {
    if identifiers.count == 1, let identifier {
      return .show(identifier, context: context)
    }
    return .showAll(identifiers, context: context)
  }
}
