/// The stores whose state mirrors a navigator's route: after each change of the route, each
/// one gets a ``SetRoute``.
///
/// Stores are held weakly; a released store is forgotten at the next registration.
@MainActor
final class RouteMirror {
  /// One store whose state mirrors the route.
  private struct Entry {
    weak var owner: AnyObject?
    let send: @MainActor (Route) -> Void
  }

  private var entries: [Entry] = []

  /// Registers `store` when its state holds a route; registering it again does nothing.
  func register<S: State, D: Sendable>(_ store: Store<S, D>) {
    guard let holding = S.self as? any RouteHoldingState.Type else { return }
    entries.removeAll { $0.owner == nil }
    guard !entries.contains(where: { $0.owner === store }) else { return }
    entries.append(
      Entry(owner: store) { [weak store] route in
        store?.dispatch(any: setRouteUpdater(holding, route))
      })
  }

  /// Dispatches `SetRoute(route)` to every registered store still alive.
  func send(_ route: Route) {
    for entry in entries where entry.owner != nil {
      entry.send(route)
    }
  }
}

private func setRouteUpdater<T: RouteHoldingState>(_ type: T.Type, _ route: Route)
  -> any Dispatchable
{
  SetRoute<T>(route)
}
