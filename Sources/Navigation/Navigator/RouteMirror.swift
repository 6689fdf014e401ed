/// The stores whose state mirrors a navigator's route: after each change of the route, each
/// one gets a ``SetRoute``.
///
/// Stores are held weakly; a released store is forgotten at the next registration.
@MainActor
final class RouteMirror {
  /// One store whose state mirrors the route.
  private struct Entry {
    weak var owner: AnyObject?
    let send: @MainActor (Route, [(any Sendable)?]) -> Void
  }

  private var entries: [Entry] = []

  /// Registers `store` when its state holds a route; registering it again does nothing.
  func register<S: State, D: Sendable>(_ store: Store<S, D>) {
    guard let holding = S.self as? any RouteHoldingState.Type else { return }
    entries.removeAll { $0.owner == nil }
    guard !entries.contains(where: { $0.owner === store }) else { return }
    let holdsContexts = S.self is any RouteContextHoldingState.Type
    entries.append(
      Entry(owner: store) { [weak store] route, contexts in
        guard let store else { return }
        var encoded: RouteContexts?
        if holdsContexts {
          do {
            encoded = try RouteContexts.encoding(contexts, along: route)
          } catch {
            let updater = setRouteUpdater(holding, route, contexts: nil)
            store.onUnhandledError(error, updater)
            encoded = RouteContexts.encodingEach(contexts, along: route)
          }
        }
        store.dispatch(any: setRouteUpdater(holding, route, contexts: encoded))
      })
  }

  /// Dispatches `SetRoute(route)` to every registered store still alive.
  func send(_ route: Route, contexts: [(any Sendable)?]) {
    for entry in entries where entry.owner != nil {
      entry.send(route, contexts)
    }
  }
}

extension RouteContexts {
  /// Encodes each context that can be, leaving the others' entries empty.
  static func encodingEach(_ contexts: [(any Sendable)?], along route: Route) -> RouteContexts {
    RouteContexts(
      entries: contexts.enumerated().map { index, context in
        (try? encoding([context], along: [route.indices.contains(index) ? route[index] : "?"]))?
          .entries.first ?? nil
      })
  }
}

private func setRouteUpdater<T: RouteHoldingState>(
  _ type: T.Type, _ route: Route, contexts: RouteContexts?
) -> any Dispatchable {
  SetRoute<T>(route, contexts: contexts)
}
