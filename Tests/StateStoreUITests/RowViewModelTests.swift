import StateStoreUI
import Testing

private enum FirstValues {}
private enum ElementChange {}
private enum UnrelatedChange {}
private enum SharedChange {}
private enum BothChange {}
private enum EqualModel {}
private enum SameID {}
private enum Removal {}
private enum Cancelling {}
private enum Releasing {}
private enum Connecting {}
private enum ReleasedView {}
private enum OnScope {}
private enum Again {}

@Suite("Row view models: an element and a shared slice of the state, O(changed)")
@MainActor
struct RowViewModelTests {
  /// Subscribes a row to each id, recording what each receives as lines.
  @MainActor
  final class Recorder<Tag> {
    var received: [Int: [String]] = [:]
    var tokens: [Subscription] = []

    init(_ store: BrowserStore, ids: some Sequence<Int>) {
      for id in ids {
        tokens.append(
          store.subscribe(RepoRow<Tag>.self, to: \.repos, id: id) { [unowned self] row in
            received[id, default: []].append(row?.line ?? "nil")
          })
      }
    }

    /// Forgets what was received so far.
    func reset() {
      received = [:]
      RepoRow<Tag>.resetEvaluations()
    }
  }

  @Test("each row gets its view model at once, nil for an id no element has")
  func firstValues() {
    let store = BrowserStore(dependencies: ())
    let rows = Recorder<FirstValues>(store, ids: [0, 1, 99])
    #expect(rows.received == [0: ["  repo0"], 1: ["★ repo1"], 99: ["nil"]])
  }

  @Test("a changed element evaluates and delivers only its own row")
  func elementChange() {
    let store = BrowserStore(dependencies: ())
    let rows = Recorder<ElementChange>(store, ids: 0..<5)
    rows.reset()
    store.dispatch(RenameRepo(id: 2, name: "two"))
    #expect(rows.received == [2: ["  two"]])
    #expect(RepoRow<ElementChange>.evaluations() == ["2": 1, "shared": 1])
  }

  @Test("a change that neither an element nor the shared slice sees evaluates no row")
  func unrelatedChange() {
    let store = BrowserStore(dependencies: ())
    let rows = Recorder<UnrelatedChange>(store, ids: 0..<5)
    rows.reset()
    store.dispatch(BumpUnrelated())
    store.dispatch(BumpUnrelated())
    #expect(rows.received.isEmpty)
    // The shared slice is selected once per dispatch for all five rows, not once per row.
    #expect(RepoRow<UnrelatedChange>.evaluations() == ["shared": 2])
  }

  @Test("a changed shared slice evaluates every row once and delivers only the changed ones")
  func sharedChange() {
    let store = BrowserStore(dependencies: ())
    let rows = Recorder<SharedChange>(store, ids: 0..<5)
    rows.reset()
    store.dispatch(ToggleFavourite(id: 3))
    #expect(rows.received == [3: ["★ repo3"]])
    #expect(
      RepoRow<SharedChange>.evaluations() == [
        "0": 1, "1": 1, "2": 1, "3": 1, "4": 1, "shared": 1,
      ])
    store.dispatch(ToggleFavourite(id: 1))
    #expect(rows.received == [3: ["★ repo3"], 1: ["  repo1"]])
  }

  @Test("an element and the shared slice changed in one dispatch reach the row once")
  func bothChange() {
    let store = BrowserStore(dependencies: ())
    let rows = Recorder<BothChange>(store, ids: 0..<5)
    rows.reset()
    store.dispatch(RenameAndFavourite(id: 4, name: "four"))
    #expect(rows.received == [4: ["★ four"]])
  }

  @Test("a row whose view model is equal to the last one delivered is evaluated, not called")
  func equalModelIsNotDelivered() {
    let store = BrowserStore(dependencies: ())
    let rows = Recorder<EqualModel>(store, ids: 0..<5)
    rows.reset()
    store.dispatch(Watch(id: 2))
    store.dispatch(RenameRepo(id: 2, name: "repo2"))
    #expect(rows.received.isEmpty)
    #expect(RepoRow<EqualModel>.evaluations() == ["2": 1, "shared": 2])
  }

  @Test("rows of the same id are each delivered, each deduplicated on its own")
  func rowsOfTheSameID() {
    let store = BrowserStore(dependencies: ())
    var first: [String] = []
    var second: [String] = []
    let a = store.subscribe(RepoRow<SameID>.self, to: \.repos, id: 2) {
      first.append($0?.line ?? "nil")
    }
    store.dispatch(RenameRepo(id: 2, name: "two"))
    let b = store.subscribe(RepoRow<SameID>.self, to: \.repos, id: 2) {
      second.append($0?.line ?? "nil")
    }
    store.dispatch(ToggleFavourite(id: 2))
    store.dispatch(BumpUnrelated())
    #expect(first == ["  repo2", "  two", "★ two"])
    #expect(second == ["  two", "★ two"])
    _ = (a, b)
  }

  @Test("a removed element reaches its row as nil, and an element added with its id as a model")
  func removalAndAddition() {
    let store = BrowserStore(dependencies: ())
    let rows = Recorder<Removal>(store, ids: [1, 7])
    store.dispatch(RemoveRepo(id: 1))
    store.dispatch(ToggleFavourite(id: 7))
    store.dispatch(AddRepo(repo: Repo(id: 7, name: "seven")))
    #expect(rows.received == [1: ["★ repo1", "nil"], 7: ["nil", "★ seven"]])
  }

  @Test("a cancelled row hears nothing more, neither from its element nor from the shared slice")
  func cancellation() {
    let store = BrowserStore(dependencies: ())
    let rows = Recorder<Cancelling>(store, ids: 0..<3)
    rows.reset()
    rows.tokens[1].cancel()
    store.dispatch(RenameRepo(id: 1, name: "one"))
    store.dispatch(ToggleFavourite(id: 1))
    store.dispatch(ToggleFavourite(id: 0))
    #expect(rows.received == [0: ["★ repo0"]])
    #expect(RepoRow<Cancelling>.evaluations()["1"] == nil)
  }

  @Test("when the last row goes, the store stops selecting the shared slice")
  func releasingEveryRowEndsTheSharedSelection() {
    let store = BrowserStore(dependencies: ())
    var rows: Recorder<Releasing>? = Recorder<Releasing>(store, ids: 0..<3)
    store.dispatch(BumpUnrelated())
    #expect(RepoRow<Releasing>.evaluations()["shared"] ?? 0 >= 1)
    rows = nil
    RepoRow<Releasing>.resetEvaluations()
    store.dispatch(ToggleFavourite(id: 2))
    store.dispatch(RenameRepo(id: 2, name: "two"))
    #expect(RepoRow<Releasing>.evaluations().isEmpty)
    _ = rows
  }

  @Test("rows subscribed after every earlier row went hear their changes again")
  func rowsAfterEveryRowWent() {
    let store = BrowserStore(dependencies: ())
    var first: Recorder<Again>? = Recorder<Again>(store, ids: [0])
    first = nil
    store.dispatch(BumpUnrelated())
    let second = Recorder<Again>(store, ids: [0])
    store.dispatch(ToggleFavourite(id: 0))
    store.dispatch(RenameRepo(id: 0, name: "zero"))
    #expect(second.received == [0: ["  repo0", "★ repo0", "★ zero"]])
    _ = first
  }

  @Test("connect keeps a row view current, with the exact old model")
  func connectRowView() {
    let store = BrowserStore(dependencies: ())
    let view = RepoRowView<Connecting>()
    let connection = store.connect(view, to: \.repos, id: 3)
    store.dispatch(ToggleFavourite(id: 3))
    store.dispatch(Watch(id: 3))
    store.dispatch(RenameRepo(id: 3, name: "three"))
    store.dispatch(ToggleFavourite(id: 0))
    #expect(
      view.updates == ["nil →   repo3", "  repo3 → ★ repo3", "★ repo3 → ★ three"])
    #expect(view.model == RepoRow(id: 3, line: "★ three"))
    connection.cancel()
    store.dispatch(ToggleFavourite(id: 3))
    #expect(view.updates.count == 3)
  }

  @Test("a released row view ends its connection")
  func releasedRowView() throws {
    let store = BrowserStore(dependencies: ())
    var view: RepoRowView<ReleasedView>? = RepoRowView()
    weak let weakView = view
    let connection = store.connect(try #require(view), to: \.repos, id: 3)
    view = nil
    #expect(weakView == nil)
    store.dispatch(ToggleFavourite(id: 3))
    #expect(connection.isCancelled)
  }

  @Test("rows on a scope hear changes made at the root to their element and shared slice")
  func rowsOnAScope() {
    let root = Store<ShellState, Void>(dependencies: ())
    let browser = root.scope(state: \.browser)
    let rows = Recorder<OnScope>(browser, ids: [0, 1])
    root.dispatch(ShellFavourite(id: 0))
    root.dispatch(ShellRename(id: 1, name: "one"))
    root.dispatch(ShellElsewhere())
    #expect(rows.received == [0: ["  repo0", "★ repo0"], 1: ["★ repo1", "★ one"]])
  }
}

private struct ShellState: State {
  var browser = BrowserState()
  var elsewhere = 0
}

private struct ShellFavourite: StateUpdater {
  let id: Int
  func updateState(_ state: inout ShellState) {
    ToggleFavourite(id: id).updateState(&state.browser)
  }
}

private struct ShellRename: StateUpdater {
  let id: Int
  let name: String
  func updateState(_ state: inout ShellState) {
    RenameRepo(id: id, name: name).updateState(&state.browser)
  }
}

private struct ShellElsewhere: StateUpdater {
  func updateState(_ state: inout ShellState) { state.elsewhere += 1 }
}
