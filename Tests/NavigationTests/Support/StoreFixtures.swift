import Navigation
import StateStore

struct Empty: State {}

struct Dependencies: NavigationProvider {
  let navigator: Navigator
}

/// A state that mirrors the route.
struct AppState: RouteHoldingState, Equatable {
  var route: Route = ["list"]
  var counter = 0
}

struct Bump: StateUpdater {
  func updateState(_ state: inout AppState) { state.counter += 1 }
}
