import Navigation
import StateStore
import StateStoreTesting
import Testing

@MainActor
@Suite("NavigationWitness")
struct WitnessTests {
  @Test("records each request instead of performing it")
  func records() async throws {
    let witness = NavigationWitness(root: "list")
    let store = Store(
      initialState: AppState(), dependencies: Dependencies(navigator: witness.navigator))
    try await store.dispatch(Show("detail", context: 3))
    try await store.dispatch(Hide())
    try await store.dispatch(Navigate(to: ["list", "settings"]))
    try await store.dispatch(OpenDetail(id: 9))
    #expect(
      witness.requests == [
        .show("detail"), .hide(nil), .navigate(["list", "settings"]), .show("detail"),
      ])
    #expect(witness.actions.first?.context as? Int == 3)
    #expect(witness.actions.last?.context as? Int == 9)
    #expect(witness.shownIdentifiers == ["detail", "detail"])
    #expect(witness.hiddenIdentifiers == [nil])
    #expect(witness.navigatedRoutes == [["list", "settings"]])
    #expect(witness.requests.map(\.description).first == #"Show("detail")"#)
    #expect(witness.navigator.currentRoute == ["list"])
    #expect(store.state.route == ["list"])
    witness.reset()
    #expect(witness.actions.isEmpty)
  }

  @Test("can make a request fail, to test the error path")
  func failure() async throws {
    struct Refused: Error {}
    let witness = NavigationWitness(root: "list")
    witness.failure = { action in
      if case .show("detail", _) = action { Refused() } else { nil }
    }
    let store = Store(
      initialState: AppState(), dependencies: Dependencies(navigator: witness.navigator))
    await #expect(throws: Refused.self) { try await store.dispatch(Show("detail")) }
    try await store.dispatch(Show("settings"))
    #expect(witness.requests == [.show("detail"), .show("settings")])
  }
}
