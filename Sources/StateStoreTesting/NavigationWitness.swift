import Navigation

/// Stands in for the navigator in tests: it records each `Show`, `Hide` and `Navigate` request
/// instead of performing it, so that a test can assert which navigation its code asked for.
///
/// Give ``navigator`` to the store's dependencies; every request dispatched to the store (or by
/// a side effect) then reaches the witness after the interceptors, and the awaited dispatch
/// returns at once.
///
/// ```swift
/// let witness = NavigationWitness(root: "list")
/// let store = Store(initialState: AppState(), dependencies: AppDependencies(navigator: witness.navigator))
/// try await store.dispatch(OpenTodo(id: 3))
/// #expect(witness.requests == [.show("detail")])
/// #expect(witness.actions.last?.context as? Int == 3)
/// ```
@MainActor
public final class NavigationWitness {
  /// The navigator to hand to the code under test; its route stays `[root]`.
  public let navigator: Navigator

  /// Every request received, oldest first.
  public private(set) var actions: [NavigationAction] = []

  /// Decides whether a request fails: return an error to throw it to the dispatcher, or `nil`.
  ///
  /// A failed request is still recorded.
  public var failure: (@MainActor (NavigationAction) -> (any Error)?)?

  /// Creates a witness whose navigator's root is identified `root`.
  public init(root: RouteElementIdentifier = "root") {
    navigator = Navigator(root: WitnessRoot(routeIdentifier: root))
    navigator.record { [weak self] action in
      guard let self else { return }
      self.actions.append(action)
      if let error = self.failure?(action) { throw error }
    }
  }

  /// A request as the witness received it, without its context.
  public enum Request: Hashable, Sendable, CustomStringConvertible {
    /// `Show(identifier)`.
    case show(RouteElementIdentifier)
    /// `Hide(identifier)`; `nil` for `Hide()`.
    case hide(RouteElementIdentifier?)
    /// `Navigate(to: route)`.
    case navigate(Route)

    /// The request as written in code, such as `Show("detail")`.
    public var description: String {
      switch self {
      case .show(let identifier): NavigationAction.show(identifier, context: nil).description
      case .hide(let identifier): NavigationAction.hide(identifier, context: nil).description
      case .navigate(let route): NavigationAction.navigate(to: route, contexts: [:]).description
      }
    }
  }

  /// Every request received, oldest first, without contexts: compare it in assertions.
  ///
  /// ```swift
  /// #expect(witness.requests == [.show("detail"), .hide(nil)])
  /// ```
  public var requests: [Request] {
    actions.map { action in
      switch action {
      case .show(let identifier, _): .show(identifier)
      case .hide(let identifier, _): .hide(identifier)
      case .navigate(let route, _): .navigate(route)
      }
    }
  }

  /// The identifiers of every `Show` received, in order.
  public var shownIdentifiers: [RouteElementIdentifier] {
    actions.compactMap { action in
      if case .show(let identifier, _) = action { identifier } else { nil }
    }
  }

  /// The identifiers of every `Hide` received, in order; `nil` for `Hide()`.
  public var hiddenIdentifiers: [RouteElementIdentifier?] {
    actions.compactMap { action in
      if case .hide(let identifier, _) = action { .some(identifier) } else { nil }
    }
  }

  /// The target routes of every `Navigate` received, in order.
  public var navigatedRoutes: [Route] {
    actions.compactMap { action in
      if case .navigate(let route, _) = action { route } else { nil }
    }
  }

  /// Forgets the requests received so far.
  public func reset() {
    actions.removeAll()
  }
}

/// The root of a witness's navigator: it has no routing table.
@MainActor
private final class WitnessRoot: Routable {
  let routeIdentifier: RouteElementIdentifier

  init(routeIdentifier: RouteElementIdentifier) {
    self.routeIdentifier = routeIdentifier
  }
}
