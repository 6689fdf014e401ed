/// A sub-flow's identifier together with the type of its result, so that showing it and
/// finishing it are checked against each other by the compiler.
///
/// ```swift
/// extension SubFlow where Result == Bool {
///   static let confirmDelete = SubFlow("confirm")
/// }
///
/// let confirmed = try await store.dispatch(ShowForResult(.confirmDelete))  // Bool?
/// try await store.dispatch(Finish(.confirmDelete, with: true))              // must be a Bool
/// ```
public struct SubFlow<Result: Sendable>: Hashable, Sendable {
  /// The identifier of the sub-flow's first routable.
  public let identifier: RouteElementIdentifier

  /// Names the sub-flow whose first routable is identified `identifier`.
  public init(_ identifier: RouteElementIdentifier) {
    self.identifier = identifier
  }
}

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

/// Finishes a sub-flow with a result: `Finish("due-date", with: date)`.
///
/// Dispatched by any routable of the sub-flow (or anyone else): the navigator hides the topmost
/// sub-flow shown as `identifier` (its first routable and everything above it, whatever tables
/// showed them) and resumes whoever awaits its ``ShowForResult``. With a ``SubFlow`` the result's
/// type is checked when compiling; with an identifier, a result of another type than the one
/// awaited throws ``NavigationError`` kind `.resultTypeMismatch` and leaves the sub-flow open.
/// Finishing when no such sub-flow awaits a result throws kind `.noSubFlow`.
public struct Finish: NavigationDispatchable {
  /// The sub-flow's first element.
  public let identifier: RouteElementIdentifier
  /// The result handed to the caller.
  public let result: any Sendable

  /// Creates a request to finish the sub-flow `identifier` with `result`.
  public init(_ identifier: RouteElementIdentifier, with result: some Sendable) {
    self.identifier = identifier
    self.result = result
  }

  /// Creates a request to finish `subFlow` with `result`, of the type its caller awaits.
  public init<Value: Sendable>(_ subFlow: SubFlow<Value>, with result: Value) {
    self.identifier = subFlow.identifier
    self.result = result
  }

  /// The finish action.
  public var navigationAction: NavigationAction { .finish(identifier, result: result) }
}
