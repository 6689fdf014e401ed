/// A dispatchable that asks the navigator for a change of route: ``Show``, ``Hide``,
/// ``Navigate``, or an application's own request built on them.
///
/// Dispatched with `try await store.dispatch(_:)`, it goes through the store's interceptors and
/// the call returns when the navigator has carried out every step. Dispatched untyped (for
/// example by an interceptor), it still runs; its errors then go to
/// ``Store/onUnhandledError``.
public protocol NavigationDispatchable: ExecutableDispatchable, CustomStringConvertible {
  /// What the navigator should do.
  var navigationAction: NavigationAction { get }
}

extension NavigationDispatchable {
  /// The request as written in code, such as `Show("detail")`.
  public var description: String { navigationAction.description }

  /// Starts the request on the navigator of `store`'s dependencies, without awaiting it.
  ///
  /// Reports ``NavigationError`` kind `.noNavigator` to ``Store/onUnhandledError`` when the
  /// dependencies do not conform to ``NavigationProvider``.
  @MainActor public func start<S: State, D: Sendable>(in store: Store<S, D>) {
    guard let provider = store.dependencies as? any NavigationProvider else {
      store.onUnhandledError(
        NavigationError(.noNavigator, request: description, route: []), self)
      return
    }
    let navigator = provider.navigator
    navigator.mirrorRouteIfPossible(into: store)
    navigator.submit(navigationAction) { [weak store] result in
      if case .failure(let error) = result {
        store?.onUnhandledError(error, self)
      }
    }
  }
}

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

/// Hides a route element: `Hide("detail")`, or `Hide()` for the topmost one.
///
/// The routable being hidden is asked first for `.hide(identifier)` in its table, then the
/// routables beneath it, topmost first. Hiding the root, or an identifier that is not on the
/// route, throws.
public struct Hide: NavigationDispatchable {
  /// The element to hide; `nil` hides the topmost element.
  public let identifier: RouteElementIdentifier?
  /// What the instruction receives, if anything.
  public let context: (any Sendable)?

  /// Creates a request to hide the topmost element `identifier`, or the topmost element.
  public init(_ identifier: RouteElementIdentifier? = nil, context: (any Sendable)? = nil) {
    self.identifier = identifier
    self.context = context
  }

  /// The hide action.
  public var navigationAction: NavigationAction { .hide(identifier, context: context) }
}

/// Goes to a whole route: `Navigate(to: ["list", "detail"])`.
///
/// Hides down to the common prefix of the current route and `route`, topmost first, then shows
/// each missing element in turn. Navigating to the current route does nothing. After a replay,
/// `Navigate(to: store.state.route)` rebuilds the screens.
public struct Navigate: NavigationDispatchable {
  /// The route to go to; it starts at the root.
  public let route: Route
  /// The context for the factory of each element shown, by identifier.
  public let contexts: [RouteElementIdentifier: any Sendable]

  /// Creates a request to go to `route`.
  public init(to route: Route, contexts: [RouteElementIdentifier: any Sendable] = [:]) {
    self.route = route
    self.contexts = contexts
  }

  /// The navigate action.
  public var navigationAction: NavigationAction { .navigate(to: route, contexts: contexts) }
}
