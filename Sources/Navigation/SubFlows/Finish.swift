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
