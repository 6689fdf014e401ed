/// One navigation request, as every part of navigation sees it: what `Show`, `Hide`,
/// `Navigate` and the other requests ask for, what the navigator runs, and what a test's
/// navigation witness records.
///
/// Two requests are equal when they ask for the same thing: the same kind, identifiers and
/// route. Their contexts and results are any `Sendable` value, often not `Equatable`, and are
/// not compared; read ``context`` to check one:
///
/// ```swift
/// #expect(witness.actions == [.show("detail"), .hide(nil)])
/// #expect(witness.actions.first?.context as? Int == 3)
/// ```
public enum NavigationAction: Sendable, Hashable, CustomStringConvertible {
  /// Shows the element `identifier`; factories receive `context`.
  case show(RouteElementIdentifier, context: (any Sendable)? = nil)
  /// Hides the topmost element `identifier`, or the topmost element when `nil`.
  case hide(RouteElementIdentifier?, context: (any Sendable)? = nil)
  /// Hides down to the common prefix with `route`, then shows each missing element; the factory
  /// of each shown element receives `contexts[element]`.
  case navigate(to: Route, contexts: [RouteElementIdentifier: any Sendable] = [:])
  /// Shows each element in turn, as one request: `Show(["tabs", "inbox"])`; each factory
  /// receives `context`.
  case showAll([RouteElementIdentifier], context: (any Sendable)? = nil)
  /// Finishes the topmost sub-flow shown as `identifier` with `result`: the sub-flow is hidden
  /// and whoever awaits it gets `result`.
  case finish(RouteElementIdentifier, result: any Sendable)
  /// Replaces the root, and with it the whole route, by the routable that the navigator's
  /// root factory for `identifier` builds from `context`.
  case changeRoot(RouteElementIdentifier, context: (any Sendable)? = nil)

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
  /// Whether both ask for the same thing; contexts and results are not compared.
  public static func == (lhs: NavigationAction, rhs: NavigationAction) -> Bool {
    lhs.target == rhs.target
  }

  /// Hashes what the request asks for, not its context or result.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(target)
  }

  /// What the request asks for, without its context or result: what equality compares.
  private var target: Target {
    switch self {
    case .show(let identifier, _): .show(identifier)
    case .hide(let identifier, _): .hide(identifier)
    case .navigate(let route, _): .navigate(route)
    case .showAll(let identifiers, _): .showAll(identifiers)
    case .finish(let identifier, _): .finish(identifier)
    case .changeRoot(let identifier, _): .changeRoot(identifier)
    }
  }

  private enum Target: Hashable {
    case show(RouteElementIdentifier)
    case hide(RouteElementIdentifier?)
    case navigate(Route)
    case showAll([RouteElementIdentifier])
    case finish(RouteElementIdentifier)
    case changeRoot(RouteElementIdentifier)
  }

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
