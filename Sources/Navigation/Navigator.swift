/// Resolves `Show`, `Hide` and `Navigate` against the routing tables of the routables on the
/// route, without any UI framework.
///
/// The navigator holds a stack of modal levels, each a stack of pushed routables; level 0
/// starts with the root, which no `Hide` removes (``changeRoot(to:)`` replaces it). ``currentRoute`` is every level's routables in
/// order. A UI layer renders ``levels`` (or ``visibleRoutables``) and re-renders when
/// ``observeRoute(_:)`` reports a change; it never decides the route itself.
///
/// ```swift
/// let navigator = Navigator(root: ListScreen())
/// try await navigator.show("detail", context: todo.id)
/// navigator.currentRoute  // ["list", "detail"]
/// ```
///
/// Requests run one at a time, in the order they arrive: a request waits for the one before it,
/// and its awaited call returns only when every step of it is done. An application usually
/// dispatches ``Show``, ``Hide`` and ``Navigate`` to its store instead of calling the navigator,
/// so that interceptors and the action log see them.
@MainActor
public final class Navigator {
  /// The routable the route starts from; only ``changeRoot(to:)`` (or a ``ChangeRoot``
  /// request) replaces it.
  public private(set) var root: any Routable

  /// Builds the root for a ``ChangeRoot`` request, or for a `Navigate` whose route starts at
  /// another root, by the identifier of the new root.
  public var rootFactories: [RouteElementIdentifier: RoutableFactory]

  /// The modal levels, bottom first; each is a stack of routables, bottom first.
  ///
  /// `levels[0][0]` is the root, and no level is empty.
  public var levels: [[any Routable]] { model.levels }

  // Each of the navigator's jobs has a type of its own; the navigator wires them together and
  // keeps the public API:
  // - `RouteModel` holds the levels and answers where a routable sits;
  // - `NavigationQueue` runs requests one at a time, in arrival order;
  // - `RouteResolver` finds which routable answers a request and carries out its instruction;
  // - `RouteMirror` keeps the stores whose state holds the route in step;
  // - `recorder` (Navigator+Witness.swift) lets a test witness take requests instead.

  /// The levels of routables; changed only through `changeLevels(_:)`, which reports changes.
  private(set) var model: RouteModel
  let queue = NavigationQueue()
  let mirror = RouteMirror()
  var observers: [RouteObserverEntry] = []
  /// Set by a navigation witness: requests are handed to it before being performed.
  var recorder: NavigationRecorder?
  /// Sub-flows whose callers await a result, oldest first.
  var subFlows: [PendingSubFlow] = []
  /// The context each routable on the route was built with, by identity.
  var contexts: [ObjectIdentifier: any Sendable] = [:]

  /// Creates a navigator whose route is `[root.routeIdentifier]`.
  ///
  /// - Parameters:
  ///   - root: The first routable of the route.
  ///   - rootFactories: Build the root for a ``ChangeRoot`` request, by identifier.
  public init(root: any Routable, rootFactories: [RouteElementIdentifier: RoutableFactory] = [:]) {
    self.root = root
    self.rootFactories = rootFactories
    self.model = RouteModel(root: root)
  }

  /// Creates a navigator before its root screen exists: the route is `["root"]`, held by a
  /// placeholder that answers no request, until ``changeRoot(to:)`` installs the real root.
  ///
  /// This lets an application create its store, navigator and screens in any order, and lets a
  /// test give a store a navigator without building any screen:
  ///
  /// ```swift
  /// let store = Store(initialState: AppState(), dependencies: AppDependencies(navigator: Navigator()))
  /// ```
  ///
  /// - Parameter rootFactories: Build the root for a ``ChangeRoot`` request, by identifier.
  public convenience init(rootFactories: [RouteElementIdentifier: RoutableFactory] = [:]) {
    self.init(root: PlaceholderRoot(), rootFactories: rootFactories)
  }

  /// The visible path from the root to the topmost routable, as identifiers.
  ///
  /// - Complexity: O(routables on the route).
  public var currentRoute: Route { model.route }

  /// The routables on the route, from the root to the topmost: what a UI layer renders.
  ///
  /// - Complexity: O(routables on the route).
  public var visibleRoutables: [any Routable] { model.visibleRoutables }

  /// The topmost routable: the screen the user sees in front.
  public var topmostRoutable: any Routable { model.topmost ?? root }

  // MARK: - Requests

  /// Shows the element `identifier`, as the first routable on the route (topmost first) whose
  /// table has `.show(identifier)` says.
  ///
  /// - Parameters:
  ///   - identifier: The element to show.
  ///   - context: Handed to the instruction's factory, such as the id of a todo.
  /// - Throws: ``NavigationError`` when no routable handles the request or its instruction fails.
  public func show(_ identifier: RouteElementIdentifier, context: (any Sendable)? = nil)
    async throws
  {
    try await perform(.show(identifier, context: context))
  }

  /// Hides the topmost element `identifier`, or the topmost element when `identifier` is `nil`.
  ///
  /// The routable being hidden is asked first, then the routables beneath it, topmost first.
  ///
  /// - Throws: ``NavigationError`` when the identifier is not on the route, is the root, or no
  ///   routable handles the request.
  public func hide(_ identifier: RouteElementIdentifier? = nil, context: (any Sendable)? = nil)
    async throws
  {
    try await perform(.hide(identifier, context: context))
  }

  /// Goes to `route`: hides down to the common prefix, topmost first, then shows each missing
  /// element in turn; returns at once when `route` is already the current route.
  ///
  /// If a step fails, the error says which, and ``currentRoute`` is what the completed steps
  /// left.
  ///
  /// - Parameters:
  ///   - route: The route to reach; it starts at the root.
  ///   - contexts: The context for the factory of each element shown.
  /// - Complexity: One request per element hidden or shown.
  public func navigate(
    to route: Route, contexts: [RouteElementIdentifier: any Sendable] = [:]
  ) async throws {
    try await perform(.navigate(to: route, contexts: contexts))
  }

  /// Runs `action` after every request that arrived before it, and returns when it is done.
  ///
  /// Called from a `.custom` instruction of this navigator, it runs at once, nested in the
  /// request being resolved, rather than waiting for that request to finish.
  public func perform(_ action: NavigationAction) async throws {
    if let recorder, case .answered = try recorder(action) { return }
    try await queue.perform(action, on: self)
  }

  /// Replaces the root, and with it the whole route, by `newRoot`, after every request that
  /// arrived before; the old route's routables are released, and callers awaiting a sub-flow
  /// on it get `nil`.
  public func changeRoot(to newRoot: any Routable) async throws {
    try await perform(.changeRoot(newRoot.routeIdentifier, context: RootToInstall(newRoot)))
  }

  /// Queues `action` without awaiting it; `completion` gets its outcome.
  ///
  /// Used by the store, whose interceptor chain hands over a request synchronously: queueing
  /// it at once keeps requests in the order they left the chain.
  func submit(
    _ action: NavigationAction,
    completion: @escaping @MainActor (Result<Void, any Error>) -> Void
  ) {
    if let recorder {
      do {
        if case .answered = try recorder(action) {
          completion(.success(()))
          return
        }
      } catch {
        completion(.failure(error))
        return
      }
    }
    queue.submit(action, on: self, completion: completion)
  }

  /// Applies `change` to the levels and tells observers and mirrored stores if the route
  /// changed: every step of every instruction goes through here.
  func changeLevels(_ change: (inout [[any Routable]]) -> Void) {
    let oldRoute = currentRoute
    if model.change(change) {
      if let first = model.levels.first?.first { root = first }
      if !contexts.isEmpty {
        let onRoute = Set(model.visibleRoutables.map { ObjectIdentifier($0) })
        contexts = contexts.filter { onRoute.contains($0.key) }
      }
      resolveSubFlowsOffTheRoute()
      routeDidChange(from: oldRoute)
    }
  }

  /// Adds `routable`, built with `context`, as `change` places it.
  func add(
    _ routable: any Routable, context: (any Sendable)?,
    _ change: (inout [[any Routable]]) -> Void
  ) {
    if let context { contexts[ObjectIdentifier(routable)] = context }
    changeLevels(change)
  }

  /// The context each routable on the route was built with, root first.
  ///
  /// - Complexity: O(routables on the route).
  public var routeContexts: [(any Sendable)?] {
    visibleRoutables.map { contexts[ObjectIdentifier($0)] }
  }

  /// The error for `request` failing with `kind` on the current route.
  func failure(
    _ kind: NavigationError.Kind, _ request: String, detail: String? = nil,
    underlyingError: (any Error)? = nil
  ) -> NavigationError {
    NavigationError(
      kind, request: request, route: currentRoute, detail: detail,
      underlyingError: underlyingError)
  }
}

/// The root of a navigator created before its root screen: it answers no request.
@MainActor
private final class PlaceholderRoot: Routable {
  let routeIdentifier: RouteElementIdentifier = "root"
}

/// Carries the routable given to `changeRoot(to:)` through the queue as the request's context.
@MainActor
final class RootToInstall: Sendable {
  let routable: any Routable
  init(_ routable: any Routable) { self.routable = routable }
}
