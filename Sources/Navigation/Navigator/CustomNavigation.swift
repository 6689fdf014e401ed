/// What a `.custom` instruction receives: the request, and the means to change the route.
///
/// Each change takes effect at once and is reported to route observers like any other step.
/// The handler may also await further requests on ``navigator``: they run nested in the current
/// request instead of waiting behind it.
///
/// ```swift
/// .show("tabs"): .custom { navigation in
///   try navigation.replaceLevels([[navigation.navigator.root, TabsScreen()]])
/// }
/// ```
@MainActor
public struct CustomNavigation {
  /// The navigator carrying out the request.
  public let navigator: Navigator
  /// The request being answered, such as `.show("detail")`.
  public let request: NavigationRequest
  /// The context the request carries, if any.
  public let context: (any Sendable)?
  /// The routable whose table holds the instruction.
  public let handler: any Routable
  /// For a `Hide`, the routable being hidden.
  public let hidden: (any Routable)?
  private let description: String

  init(navigator: Navigator, step: RouteResolver.Step) {
    self.navigator = navigator
    self.request = step.request
    self.context = step.context
    self.handler = step.handler
    self.hidden = step.hidden
    self.description = step.description
  }

  /// Adds `routable` on top of the topmost level.
  public func push(_ routable: any Routable) {
    navigator.changeLevels { $0[$0.count - 1].append(routable) }
  }

  /// Opens a new modal level holding `routable`.
  public func presentModally(_ routable: any Routable) {
    navigator.changeLevels { $0.append([routable]) }
  }

  /// Replaces every level at once.
  ///
  /// - Throws: ``NavigationError`` with kind `.invalidLevels` when the first level does not start
  ///   with the navigator's root or a level is empty; the route is then left unchanged.
  public func replaceLevels(_ levels: [[any Routable]]) throws {
    guard let first = levels.first?.first, first === navigator.root,
      levels.allSatisfy({ !$0.isEmpty })
    else {
      throw navigator.failure(.invalidLevels, description)
    }
    navigator.changeLevels { $0 = levels }
  }
}
