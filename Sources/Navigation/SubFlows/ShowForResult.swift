/// Shows a sub-flow and awaits its result: `ShowForResult("due-date", of: Date.self)`.
///
/// The element is shown as `Show` would show it. The awaited dispatch then returns:
/// - the value a routable of the sub-flow finished it with (``Finish``), once the sub-flow is
///   hidden;
/// - `nil` when the sub-flow leaves the route without a result: a `Hide`, a `Navigate`
///   elsewhere, its presenter hidden, the root changed, or its routables released with the
///   navigator.
///
/// It throws the ``NavigationError`` of a `Show` that fails, and `CancellationError` when the
/// awaiting task is cancelled, which also hides the sub-flow.
///
/// ```swift
/// let dueDate = try await context.dispatch(ShowForResult("due-date", of: Date.self))
/// ```
public struct ShowForResult<Value: Sendable>: NavigationDispatchable {
  /// The sub-flow's first element.
  public let identifier: RouteElementIdentifier
  /// What the factory of the element receives.
  public let context: (any Sendable)?

  /// Creates a request to show `identifier` and await a result of type `Value`.
  public init(
    _ identifier: RouteElementIdentifier, of type: Value.Type, context: (any Sendable)? = nil
  ) {
    self.identifier = identifier
    self.context = context
  }

  /// Creates a request to show `subFlow` and await its result.
  public init(_ subFlow: SubFlow<Value>, context: (any Sendable)? = nil) {
    self.identifier = subFlow.identifier
    self.context = context
  }

  /// The show action; dispatched untyped, the request is a plain `Show`.
  public var navigationAction: NavigationAction { .show(identifier, context: context) }
}
