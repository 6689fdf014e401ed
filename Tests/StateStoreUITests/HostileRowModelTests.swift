import StateStoreUI
import Testing

/// The actions still to take, first to last, when a ``RowReleaseHook`` is released.
@MainActor
enum RowReleaseActions {
  static var pending: [() -> Void] = []
}

/// An object whose release runs the next of ``RowReleaseActions/pending``.
final class RowReleaseHook: Sendable {
  deinit {
    MainActor.assumeIsolated {
      guard !RowReleaseActions.pending.isEmpty else { return }
      let action = RowReleaseActions.pending.removeFirst()
      action()
    }
  }
}

/// The favourites, with a hook that every selection makes anew; equal by the favourites alone.
struct HookedFavourites: Equatable, Sendable {
  let favourites: Set<Int>
  let hook = RowReleaseHook()

  static func == (lhs: HookedFavourites, rhs: HookedFavourites) -> Bool {
    lhs.favourites == rhs.favourites
  }
}

/// A row whose every evaluation holds a hook of its own.
struct HookedRow: RowViewModel {
  let id: Int
  let line: String
  let hook = RowReleaseHook()

  static func shared(in state: BrowserState) -> HookedFavourites {
    HookedFavourites(favourites: state.favourites)
  }

  init(element repo: Repo, shared: HookedFavourites) {
    id = repo.id
    line = (shared.favourites.contains(repo.id) ? "★ " : "  ") + repo.name
  }

  static func == (lhs: HookedRow, rhs: HookedRow) -> Bool {
    lhs.id == rhs.id && lhs.line == rhs.line
  }
}

/// Rows by name, and the lines each heard.
@MainActor
final class HookedRows {
  var heard: [String: [String]] = [:]
  var tokens: [String: Subscription] = [:]

  func subscribe(_ name: String, to id: Int, in store: BrowserStore) {
    tokens[name] = store.subscribe(HookedRow.self, to: \.repos, id: id) { [unowned self] row in
      heard[name, default: []].append(row?.line ?? "nil")
    }
  }
}

@Suite("Row view models: a model released by the group runs its deinitializer outside it")
@MainActor
struct HostileRowModelTests {
  @Test("a row model whose release subscribes twenty rows, released by the group's sweep")
  func releaseBySweepSubscribes() {
    let store = BrowserStore(dependencies: ())
    let rows = HookedRows()
    for id in 0..<5 { rows.subscribe("row \(id)", to: id, in: store) }
    // Enough rows to make the group's list grow, in the middle of its sweep.
    RowReleaseActions.pending = [
      { for k in 0..<20 { rows.subscribe("late \(k)", to: k % 5, in: store) } }
    ]
    rows.tokens["row 2"]?.cancel()
    store.dispatch(BumpUnrelated())
    #expect(RowReleaseActions.pending.isEmpty, "the sweep released row 2's last model")
    #expect(rows.heard["late 7"] == ["  repo2"])
    #expect(rows.heard.count == 25)
    rows.heard = [:]
    store.dispatch(RenameRepo(id: 2, name: "two"))
    var expected = Dictionary(
      uniqueKeysWithValues: [2, 7, 12, 17].map { ("late \($0)", ["  two"]) })
    #expect(rows.heard == expected)
    rows.heard = [:]
    store.dispatch(RenameRepo(id: 4, name: "four"))
    expected = Dictionary(uniqueKeysWithValues: [4, 9, 14, 19].map { ("late \($0)", ["  four"]) })
    expected["row 4"] = ["  four"]
    #expect(rows.heard == expected)
  }

  @Test("a shared slice whose release subscribes rows, released when a new slice replaces it")
  func releaseOfSharedSubscribes() {
    let store = BrowserStore(dependencies: ())
    let rows = HookedRows()
    for id in 0..<3 { rows.subscribe("row \(id)", to: id, in: store) }
    // A changed slice replaces the group's, releasing the old one, whose hook subscribes.
    RowReleaseActions.pending = [{ rows.subscribe("new 0", to: 0, in: store) }]
    store.dispatch(ToggleFavourite(id: 0))
    #expect(RowReleaseActions.pending.isEmpty)
    #expect(rows.heard["new 0"] == ["★ repo0"])
    #expect(rows.heard["row 0"] == ["  repo0", "★ repo0"])
    rows.heard = [:]
    store.dispatch(ToggleFavourite(id: 0))
    #expect(rows.heard == ["row 0": ["  repo0"], "new 0": ["  repo0"]])
  }
}
