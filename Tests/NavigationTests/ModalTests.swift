import Navigation
import Testing

@MainActor
@Suite("Modal levels and their dismissal")
struct ModalTests {
  /// list presents m1, which presents m2, which presents m3; `list` answers `.hide(target)`
  /// with `behaviour`.
  private func chain(
    listHides target: RouteElementIdentifier? = nil,
    behaviour: NavigationInstruction.ModalDismissBehaviour = .soft,
    selfHiding: [RouteElementIdentifier: NavigationInstruction.ModalDismissBehaviour] = [:]
  ) async throws -> Navigator {
    func makeTable(_ identifier: String, presenting next: String?) -> [NavigationRequest:
      NavigationInstruction]
    {
      var table: [NavigationRequest: NavigationInstruction] = [:]
      if let next {
        let nextNext = ["m1": "m2", "m2": "m3"][next]
        table[.show(next)] = .presentModally { _ in
          Screen(next, makeTable(next, presenting: nextNext))
        }
      }
      if let own = selfHiding[identifier] {
        table[.hide(identifier)] = .dismissModally(behaviour: own)
      }
      return table
    }
    var listTable = makeTable("list", presenting: "m1")
    if let target { listTable[.hide(target)] = .dismissModally(behaviour: behaviour) }
    let navigator = Navigator(root: Screen("list", listTable))
    try await navigator.navigate(to: ["list", "m1", "m2", "m3"])
    #expect(navigator.levelRoutes == [["list"], ["m1"], ["m2"], ["m3"]])
    return navigator
  }

  @Test(".soft dismisses the hidden modal and every modal it presented")
  func softFromPresenter() async throws {
    let navigator = try await chain(listHides: "m2", behaviour: .soft)
    try await navigator.hide("m2")
    #expect(navigator.currentRoute == ["list", "m1"])
  }

  @Test(".hard dismisses every modal level above the handler")
  func hardFromPresenter() async throws {
    let navigator = try await chain(listHides: "m2", behaviour: .hard)
    try await navigator.hide("m2")
    #expect(navigator.currentRoute == ["list"])
  }

  @Test("a modal answering its own Hide dismisses itself and what it presented")
  func selfDismissal() async throws {
    for behaviour in [NavigationInstruction.ModalDismissBehaviour.soft, .hard] {
      let navigator = try await chain(selfHiding: ["m2": behaviour])
      try await navigator.hide("m2")
      #expect(navigator.currentRoute == ["list", "m1"], "behaviour \(behaviour)")
    }
  }

  @Test("a modal's pushed stack leaves with it")
  func pushedStackLeavesWithModal() async throws {
    let navigator = makeApp()
    try await navigator.navigate(to: ["list", "settings", "about"])
    #expect(navigator.levelRoutes == [["list"], ["settings", "about"]])
    try await navigator.hide("settings")
    #expect(navigator.levelRoutes == [["list"]])
  }

  @Test("pop inside a modal stays inside it")
  func popInsideModal() async throws {
    let navigator = makeApp()
    try await navigator.navigate(to: ["list", "settings", "about", "confirm"])
    #expect(navigator.levelRoutes == [["list"], ["settings", "about"], ["confirm"]])
    try await navigator.hide("about")
    #expect(navigator.levelRoutes == [["list"], ["settings"]])
  }

  @Test("dismissModally with no modal to dismiss throws")
  func nothingToDismiss() async throws {
    let list = Screen("list", [.show("away"): .dismissModally(behaviour: .hard)])
    let navigator = Navigator(root: list)
    let error = try await #require(throws: NavigationError.self) {
      try await navigator.show("away")
    }
    #expect(error.kind == .nothingToDismiss)
    #expect(navigator.currentRoute == ["list"])
  }

  @Test("a Show answered by dismissing the modal reveals the screen beneath")
  func showByDismissing() async throws {
    let list = Screen("list")
    list.table = [
      .show("modal"): .presentModally { _ in
        Screen("modal", [.show("list"): .dismissModally(behaviour: .soft)])
      }
    ]
    let navigator = Navigator(root: list)
    try await navigator.show("modal")
    try await navigator.show("list")
    #expect(navigator.currentRoute == ["list"])
  }
}
