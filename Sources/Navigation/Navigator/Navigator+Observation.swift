import StateStore

/// Telling a UI layer and the store's state about route changes.
extension Navigator {
  /// Calls `observer` with the route before and after every change, until the token is
  /// cancelled or released.
  ///
  /// A change is reported once per step: a `Navigate` that hides two elements and shows one
  /// reports three changes. A step that replaces a routable by another with the same identifier
  /// is reported too (the routes are then equal), so that a UI layer redraws the new routable.
  ///
  /// ```swift
  /// let token = navigator.observeRoute { _, _ in
  ///   renderer.render(navigator.levels)
  /// }
  /// ```
  ///
  /// - Returns: The token that keeps the observer registered.
  public func observeRoute(
    _ observer: @escaping @MainActor (_ old: Route, _ new: Route) -> Void
  ) -> Subscription {
    let entry = RouteObserverEntry(observer)
    observers.append(entry)
    // Cancelling releases the observer at once from any thread; the emptied entry is swept at
    // the next route change, as the store does with its listeners.
    return Subscription { [weak entry] in entry?._clear() }
  }

  /// A stream of every route the navigator goes to, starting with the next change.
  ///
  /// The stream ends when the task iterating it is cancelled.
  ///
  /// ```swift
  /// for await route in navigator.routeUpdates() { print(route) }
  /// ```
  public func routeUpdates() -> AsyncStream<Route> {
    let (stream, continuation) = AsyncStream.makeStream(of: Route.self)
    let subscription = observeRoute { _, new in continuation.yield(new) }
    continuation.onTermination = { _ in subscription.cancel() }
    return stream
  }

  /// Keeps `store.state.route` equal to ``currentRoute`` from now on, by dispatching a
  /// ``SetRoute`` after each change of the route.
  ///
  /// A store whose dependencies provide this navigator does this by itself at its first
  /// navigation dispatch; call it earlier when route changes may come from elsewhere first.
  /// Registering does not dispatch: the first change does. The navigator holds the store
  /// weakly. Registering the same store again does nothing.
  public func mirrorRoute<S: RouteHoldingState, D: Sendable>(into store: Store<S, D>) {
    mirrorRouteIfPossible(into: store)
  }

  /// Registers `store` for route mirroring when its state holds a route; for a scope, its
  /// root store, whose state is the one that holds the route.
  func mirrorRouteIfPossible<S: State, D: Sendable>(into store: Store<S, D>) {
    if let root = store.rootStore as? any RouteMirrorable, root !== store {
      root.registerRouteMirror(on: self)
    } else {
      mirror.register(store)
    }
  }

  func routeDidChange(from old: Route) {
    let new = currentRoute
    if old != new {
      mirror.send(new, contexts: routeContexts)
    }
    observers.removeAll { !$0._isActive }
    for entry in observers {
      entry.callback?(old, new)
    }
  }
}

/// A route observer, releasable from any thread.
typealias RouteObserverEntry = _CallbackSlot<@MainActor (Route, Route) -> Void>

/// A store whose route mirroring a navigator can register without knowing its types: how a
/// scope's navigation request reaches its root store.
@MainActor
protocol RouteMirrorable: AnyObject {
  func registerRouteMirror(on navigator: Navigator)
}

extension Store: RouteMirrorable {
  func registerRouteMirror(on navigator: Navigator) {
    navigator.mirror.register(self)
  }
}
