/// One navigation request as the navigator runs it: what `Show`, `Hide` and `Navigate` ask for.
public enum NavigationAction: Sendable, CustomStringConvertible {
  /// Shows the element `identifier`; factories receive `context`.
  case show(RouteElementIdentifier, context: (any Sendable)?)
  /// Hides the topmost element `identifier`, or the topmost element when `nil`.
  case hide(RouteElementIdentifier?, context: (any Sendable)?)
  /// Hides down to the common prefix with `route`, then shows each missing element; the factory
  /// of each shown element receives `contexts[element]`.
  case navigate(to: Route, contexts: [RouteElementIdentifier: any Sendable])
  /// Shows each element in turn, as one request: `Show(["tabs", "inbox"])`; each factory
  /// receives `context`.
  case showAll([RouteElementIdentifier], context: (any Sendable)?)
  /// Finishes the topmost sub-flow shown as `identifier` with `result`: the sub-flow is hidden
  /// and whoever awaits it gets `result`.
  case finish(RouteElementIdentifier, result: any Sendable)
  /// Replaces the root, and with it the whole route, by the routable that the navigator's
  /// root factory for `identifier` builds from `context`.
  case changeRoot(RouteElementIdentifier, context: (any Sendable)?)

  /// The request as written in code, such as `Show("detail")` or `Navigate(to: [list, detail])`.
  public var description: String {
    switch self {
    case .show(let identifier, _): "Show(\"\(identifier)\")"
    case .hide(let identifier?, _): "Hide(\"\(identifier)\")"
    case .hide(nil, _): "Hide()"
    case .navigate(let route, _): "Navigate(to: \(describe(route)))"
    case .showAll(let identifiers, _):
      "Show([" + identifiers.map { "\"\($0)\"" }.joined(separator: ", ") + "])"
    case .finish(let identifier, _): "Finish(\"\(identifier)\")"
    case .changeRoot(let identifier, _): "ChangeRoot(to: \"\(identifier)\")"
    }
  }
}

extension NavigationAction {
  /// The context of a show, hide or root change, or the result of a finish; `nil` for a
  /// navigate action.
  public var context: (any Sendable)? {
    switch self {
    case .show(_, let context), .hide(_, let context), .showAll(_, let context),
      .changeRoot(_, let context):
      context
    case .finish(_, let result): result
    case .navigate: nil
    }
  }
}
