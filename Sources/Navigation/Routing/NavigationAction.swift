/// One navigation request as the navigator runs it: what `Show`, `Hide` and `Navigate` ask for.
public enum NavigationAction: Sendable, CustomStringConvertible {
  /// Shows the element `identifier`; factories receive `context`.
  case show(RouteElementIdentifier, context: (any Sendable)?)
  /// Hides the topmost element `identifier`, or the topmost element when `nil`.
  case hide(RouteElementIdentifier?, context: (any Sendable)?)
  /// Hides down to the common prefix with `route`, then shows each missing element; the factory
  /// of each shown element receives `contexts[element]`.
  case navigate(to: Route, contexts: [RouteElementIdentifier: any Sendable])

  /// The request as written in code, such as `Show("detail")` or `Navigate(to: [list, detail])`.
  public var description: String {
    switch self {
    case .show(let identifier, _): "Show(\"\(identifier)\")"
    case .hide(let identifier?, _): "Hide(\"\(identifier)\")"
    case .hide(nil, _): "Hide()"
    case .navigate(let route, _): "Navigate(to: \(describe(route)))"
    }
  }
}

extension NavigationAction {
  /// The context of a show or hide action; `nil` for a navigate action.
  public var context: (any Sendable)? {
    switch self {
    case .show(_, let context), .hide(_, let context): context
    case .navigate: nil
    }
  }
}
