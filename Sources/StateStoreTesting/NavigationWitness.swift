import Navigation
import Testing

/// Stands in for the navigator in tests: it records each navigation request, and either
/// answers it (mocked), lets a real navigator carry it out (live), or fails the test
/// (unimplemented).
///
/// Give ``navigator`` to the store's dependencies; every request dispatched to the store (or by
/// a side effect) then reaches the witness after the interceptors.
///
/// ```swift
/// let witness = NavigationWitness(root: "list")
/// let store = Store(initialState: AppState(), dependencies: AppDependencies(navigator: witness.navigator))
/// try await store.dispatch(OpenTodo(id: 3))
/// #expect(witness.actions == [.show("detail")])
/// #expect(witness.actions.last?.context as? Int == 3)
/// ```
///
/// A sub-flow's result is answered without building its screens:
///
/// ```swift
/// witness.answer("confirm") { _ in true }
/// let confirmed = try await store.dispatch(ShowForResult("confirm", of: Bool.self))  // true
/// ```
@MainActor
public final class NavigationWitness {
  /// What the witness does with a request, once recorded.
  public enum Mode: Sendable, Hashable {
    /// The navigator really navigates (but for identifiers given an `answer(_:with:)`).
    case live
    /// Nothing navigates: the route stays `[root]`; an awaited dispatch returns at once, and a
    /// sub-flow gets what its `answer(_:with:)` handler returns, or `nil`.
    case mocked
    /// Any request fails the test where the witness was created, and throws
    /// ``UnimplementedNavigationError``.
    case unimplemented
  }

  /// The navigator to hand to the code under test.
  public let navigator: Navigator
  /// What the witness does with a request.
  public let mode: Mode

  /// Every request received, oldest first: compare it in assertions, as equality leaves
  /// contexts out, and read a request's `context` to check it.
  ///
  /// ```swift
  /// #expect(witness.actions == [.show("detail"), .hide(nil)])
  /// ```
  public private(set) var actions: [NavigationAction] = []

  /// Decides whether a request fails: return an error to throw it to the dispatcher, or `nil`.
  ///
  /// A failed request is still recorded.
  public var failure: (@MainActor (NavigationAction) -> (any Error)?)?

  /// Answers to requests, by the identifier they show.
  private var answers:
    [RouteElementIdentifier: @MainActor (NavigationAction) throws -> (any Sendable)?] =
      [:]
  private let creation: SourceLocation

  /// Creates a mocked witness whose navigator's root is identified `root`.
  public convenience init(
    root: RouteElementIdentifier = "root", sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.init(
      mode: .mocked, root: root, sourceLocation: sourceLocation)
  }

  /// Creates a witness in `mode` whose navigator's root is identified `root`.
  ///
  /// - Parameters:
  ///   - mode: Whether requests are answered, performed, or fail the test.
  ///   - root: The identifier of the root; in live mode, give the real root with
  ///     ``init(live:sourceLocation:)`` instead.
  ///   - sourceLocation: Where an unimplemented witness fails the test.
  public convenience init(
    mode: Mode, root: RouteElementIdentifier = "root",
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.init(
      navigator: Navigator(root: WitnessRoot(routeIdentifier: root)), mode: mode,
      creation: sourceLocation)
  }

  /// Creates a live witness: `navigator` really navigates, and every request is recorded.
  public convenience init(
    live navigator: Navigator, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.init(
      navigator: navigator, mode: .live,
      creation: sourceLocation)
  }

  /// A witness that fails the test on any navigation request: for stores whose dependencies
  /// need a navigator in a test that never navigates.
  ///
  /// ```swift
  /// let store = TestStore(
  ///   initialState: AppState(), dependencies: AppDependencies(navigator: NavigationWitness.unimplemented().navigator))
  /// ```
  public static func unimplemented(
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> NavigationWitness {
    NavigationWitness(
      mode: .unimplemented, sourceLocation: sourceLocation)
  }

  private init(navigator: Navigator, mode: Mode, creation: SourceLocation) {
    self.navigator = navigator
    self.mode = mode
    self.creation = creation
    navigator.record { [weak self] action in
      guard let self else { return .perform }
      return try self.take(action)
    }
  }

  /// Answers every request that shows `identifier` (in live mode too, instead of performing
  /// it): a `ShowForResult` gets what `handler` returns, given the request's context.
  ///
  /// The handler may throw, to fail the request.
  public func answer<Value: Sendable>(
    _ identifier: RouteElementIdentifier,
    with handler: @escaping @MainActor (_ context: (any Sendable)?) throws -> Value?
  ) {
    answers[identifier] = { action in try handler(action.context) }
  }

  /// Answers every request that shows `subFlow` with a result of the type its caller awaits.
  public func answer<Value: Sendable>(
    _ subFlow: SubFlow<Value>,
    with handler: @escaping @MainActor (_ context: (any Sendable)?) throws -> Value?
  ) {
    answer(subFlow.identifier, with: handler)
  }

  private func take(_ action: NavigationAction) throws -> RecorderVerdict {
    actions.append(action)
    if mode == .unimplemented {
      Issue.record(
        """
        Unimplemented navigation: \(action) was requested of a witness that allows none. \
        Use a mocked or live NavigationWitness if the code under test navigates.
        """, sourceLocation: creation)
      throw UnimplementedNavigationError(request: action.description)
    }
    if let error = failure?(action) { throw error }
    if case .show(let identifier, _) = action, let answer = answers[identifier] {
      return .answered(try answer(action))
    }
    return mode == .live ? .perform : .answered(nil)
  }

  /// Every request received, oldest first; use ``actions``, which compare the same way.
  @available(*, deprecated, renamed: "actions")
  public var requests: [NavigationAction] { actions }

  /// The identifiers of every `Show` received, in order; a `Show` of several gives each.
  public var shownIdentifiers: [RouteElementIdentifier] {
    actions.flatMap { action -> [RouteElementIdentifier] in
      switch action {
      case .show(let identifier, _): [identifier]
      case .showAll(let identifiers, _): identifiers
      default: []
      }
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

/// A request reached a witness created with ``NavigationWitness/unimplemented(sourceLocation:)``.
public struct UnimplementedNavigationError: Error, Hashable, CustomStringConvertible {
  /// The request, as written in code.
  public let request: String

  /// Names the request.
  public var description: String { "unimplemented navigation: \(request)" }
}

/// The root of a witness's navigator: it has no routing table.
@MainActor
private final class WitnessRoot: Routable {
  let routeIdentifier: RouteElementIdentifier

  init(routeIdentifier: RouteElementIdentifier) {
    self.routeIdentifier = routeIdentifier
  }
}
