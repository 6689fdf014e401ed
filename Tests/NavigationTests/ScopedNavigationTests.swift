import Navigation
import SideEffects
import StateStore
import Testing

/// A feature's slice of the state, and dependencies that provide the app's navigator.
struct FeatureState: State, Equatable {
  var picked: Int?
}

struct FeatureDependencies: NavigationProvider {
  let navigator: Navigator
}

struct RootState: RouteHoldingState, Equatable {
  var route: Route = ["list"]
  var feature = FeatureState()
}

struct RootDependencies: NavigationProvider {
  let navigator: Navigator
  var feature: FeatureDependencies { FeatureDependencies(navigator: navigator) }
}

/// The feature picks a due date through a sub-flow and keeps it.
struct PickDueDate: SideEffect {
  func sideEffect(_ context: SideEffectContext<FeatureState, FeatureDependencies>) async throws {
    let picked = try await context.dispatch(ShowForResult(.dueDate))
    await context.dispatch(SetPicked(value: picked))
  }
}

struct SetPicked: StateUpdater {
  let value: Int?
  func updateState(_ state: inout FeatureState) { state.picked = value }
}

@MainActor
@Suite("Navigation from scoped features", .timeLimit(.minutes(5)))
struct ScopedNavigationTests {
  @Test("a scope dispatches Show and Hide; the root's state mirrors the route")
  func showFromScope() async throws {
    let navigator = makeSubFlowApp()
    let root = Store(
      initialState: RootState(), dependencies: RootDependencies(navigator: navigator))
    let feature = root.scope(state: \.feature, dependencies: \.feature)
    try await feature.dispatch(Show("detail"))
    #expect(navigator.currentRoute == ["list", "detail"])
    #expect(root.state.route == ["list", "detail"])
    try await feature.dispatch(Hide())
    #expect(root.state.route == ["list"])
  }

  @Test("a scope's effect awaits a sub-flow's result")
  func resultFromScope() async throws {
    let navigator = makeSubFlowApp()
    let root = Store(
      initialState: RootState(), dependencies: RootDependencies(navigator: navigator))
    let feature = root.scope(state: \.feature, dependencies: \.feature)
    let effect = Task { try await feature.dispatch(PickDueDate()) }
    await waitUntil(navigator, shows: ["list", "due-date"])
    #expect(root.state.route == ["list", "due-date"])
    try await feature.dispatch(Finish(.dueDate, with: 8))
    try await effect.value
    #expect(root.state.feature.picked == 8)
    #expect(root.state.route == ["list"])
  }
}
