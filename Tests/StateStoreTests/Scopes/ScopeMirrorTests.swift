import StateStore
import Testing

/// A feature's slice for the mirror tests: a string, an array and a counter, so that updates
/// replace buffers, change them in place and change plain bytes.
struct Panel: State, Equatable {
  var title = "panel"
  var items: [Int] = []
  var taps = 0

  static func == (lhs: Panel, rhs: Panel) -> Bool {
    MainActor.assumeIsolated { panelComparisons += 1 }
    return lhs.title == rhs.title && lhs.items == rhs.items && lhs.taps == rhs.taps
  }
}

/// Counts `Panel`'s `==` calls.
@MainActor var panelComparisons = 0
/// Counts `PanelModel` evaluations.
@MainActor var panelModelEvaluations = 0

struct PanelModel: ViewModelWithState, Equatable {
  let title: String
  let items: [Int]
  let taps: Int

  init?(state: Panel) {
    MainActor.assumeIsolated { panelModelEvaluations += 1 }
    title = state.title
    items = state.items
    taps = state.taps
  }
}

/// Eight panels as stored properties, and a counter beside them.
struct PanelBoard: State {
  var counter = 0
  var panels = (
    Panel(), Panel(), Panel(), Panel(), Panel(), Panel(), Panel(), Panel()
  )

  static let paths: [any WritableKeyPath<PanelBoard, Panel> & Sendable] = [
    \.panels.0, \.panels.1, \.panels.2, \.panels.3, \.panels.4, \.panels.5, \.panels.6,
    \.panels.7,
  ]

  subscript(panel index: Int) -> Panel {
    get { self[keyPath: Self.paths[index]] }
    set { self[keyPath: Self.paths[index]] = newValue }
  }
}

struct BumpBoard: StateUpdater {
  func updateState(_ state: inout PanelBoard) { state.counter += 1 }
}

/// One of the root updaters the randomised test draws: each changes one panel in its own way.
struct ChangePanel: StateUpdater {
  enum Change: CaseIterable {
    /// Appends to the items, in place when nothing else holds the buffer.
    case append
    /// Removes the last item, in place.
    case removeLast
    /// Replaces the title with a new string, then with the old one again: the same value.
    case retitleAndBack
    /// Replaces the title with a long string built at run time: a new heap buffer.
    case retitle
    /// Changes a plain field.
    case tap
    /// Writes the same value back.
    case rewrite
  }

  let index: Int
  let change: Change
  let seed: Int

  func updateState(_ state: inout PanelBoard) {
    let path = PanelBoard.paths[index]
    switch change {
    case .append: state[keyPath: path].items.append(seed)
    case .removeLast: _ = state[keyPath: path].items.popLast()
    case .retitleAndBack:
      let old = state[keyPath: path].title
      state[keyPath: path].title = String(repeating: "x", count: 40 + seed % 7)
      state[keyPath: path].title = old
    case .retitle:
      state[keyPath: path].title = "a long title, on the heap: " + String(seed)
    case .tap: state[keyPath: path].taps += 1
    case .rewrite: state[keyPath: path] = state[keyPath: path]
    }
  }
}

/// Appends to a panel's items through the panel's own scope.
struct AppendToPanel: StateUpdater {
  let item: Int
  func updateState(_ state: inout Panel) { state.items.append(item) }
}

/// An object whose release subscribes to a scope and dispatches at the root: hostile user code
/// run when the root drops a scope's node.
@MainActor
final class ResubscribeOnRelease {
  let app: Store<PanelBoard, Void>
  let onRelease: @MainActor (Store<PanelBoard, Void>) -> Void

  init(
    app: Store<PanelBoard, Void>, onRelease: @escaping @MainActor (Store<PanelBoard, Void>) -> Void
  ) {
    self.app = app
    self.onRelease = onRelease
  }

  isolated deinit {
    onRelease(app)
  }
}

@MainActor
@Suite("Scoped stores: root updates that leave every mounted slice alone visit no scope")
struct ScopeMirrorTests {
  @Test("root updates outside eight mounted slices call neither == nor any view model")
  func untouchedSlicesCostNothing() {
    let app = Store<PanelBoard, Void>()
    var delivered = 0
    let tokens = PanelBoard.paths.map { path in
      app.scope(state: path).subscribe(PanelModel.self) { _ in delivered += 1 }
    }
    #expect(delivered == 8)
    // The first update mirrors the slices: each scope compares its slice once.
    app.dispatch(BumpBoard())
    let comparisons = panelComparisons
    let evaluations = panelModelEvaluations
    for _ in 0..<100 { app.dispatch(BumpBoard()) }
    #expect(app.state.counter == 101)
    #expect(panelComparisons == comparisons)
    #expect(panelModelEvaluations == evaluations)
    #expect(delivered == 8)
    _ = tokens
  }

  @Test("a root update that changes one slice in place notifies that scope alone, once")
  func inPlaceChangeIsSeen() {
    let app = Store<PanelBoard, Void>()
    var heard: [[Int]] = Array(repeating: [], count: 8)
    let tokens = PanelBoard.paths.indices.map { index in
      app.scope(state: PanelBoard.paths[index]).subscribe(PanelModel.self) { model in
        heard[index].append(model?.items.count ?? -1)
      }
    }
    app.dispatch(BumpBoard())
    for item in 0..<3 { app.dispatch(ChangePanel(index: 5, change: .append, seed: item)) }
    #expect(app.state.panels.5.items == [0, 1, 2])
    #expect(heard[5] == [0, 1, 2, 3])
    for index in 0..<8 where index != 5 { #expect(heard[index] == [0]) }
    _ = tokens
  }

  @Test("randomised root and scoped updates: every scope shows its slice after each dispatch")
  func randomisedUpdatesMatchTheState() {
    var generator = TrackedArrayModelTests.SeededGenerator(state: 0x5C09E)
    let app = Store<PanelBoard, Void>()
    var shown: [PanelModel?] = Array(repeating: nil, count: 8)
    var tokens: [Subscription?] = Array(repeating: nil, count: 8)
    func subscribe(_ index: Int) {
      tokens[index] = app.scope(state: PanelBoard.paths[index]).subscribe(PanelModel.self) {
        shown[index] = $0
      }
    }
    for index in 0..<8 { subscribe(index) }
    for step in 0..<4_000 {
      let index = Int.random(in: 0..<8, using: &generator)
      switch Int.random(in: 0..<20, using: &generator) {
      case 0:
        tokens[index]?.cancel()
        tokens[index] = nil
        shown[index] = nil
      case 1:
        if tokens[index] == nil { subscribe(index) }
      case 2:
        app.scope(state: PanelBoard.paths[index]).dispatch(AppendToPanel(item: step))
      case 3:
        app.dispatch(BumpBoard())
      default:
        let change = ChangePanel.Change.allCases.randomElement(using: &generator) ?? .tap
        app.dispatch(ChangePanel(index: index, change: change, seed: step))
      }
      let state = app.state
      for check in 0..<8 where tokens[check] != nil {
        #expect(
          shown[check] == PanelModel(state: state[panel: check]),
          "step \(step): panel \(check) shows a stale model")
      }
    }
    _ = tokens
  }

  @Test("a scope whose token is cancelled is released by the next update, its slice untouched")
  func cancelledScopeIsReleased() {
    let app = Store<PanelBoard, Void>()
    weak var released: Store<Panel, Void>?
    var token: Subscription?
    do {
      let scope = app.scope(state: \.panels.2)
      released = scope
      token = scope.subscribe(PanelModel.self) { _ in }
    }
    let others = [app.scope(state: \.panels.3).subscribe(PanelModel.self) { _ in }]
    app.dispatch(BumpBoard())
    app.dispatch(BumpBoard())
    #expect(released != nil)
    token?.cancel()
    app.dispatch(BumpBoard())
    #expect(released == nil)
    _ = others
  }

  @Test("a released scope's subscriber whose deinit subscribes and dispatches runs outside")
  func hostileReleaseOfADroppedScope() {
    let app = Store<PanelBoard, Void>()
    var lateValues: [Int?] = []
    var lateTokens: [Subscription] = []
    var token: Subscription?
    do {
      let hostile = ResubscribeOnRelease(app: app) { app in
        // Runs when the root drops the scope's node: subscribes to another mounted scope and
        // dispatches, both of which touch the root's scope lists.
        lateTokens.append(
          app.scope(state: \.panels.6).subscribe(PanelModel.self) { lateValues.append($0?.taps) })
        app.dispatch(ChangePanel(index: 6, change: .tap, seed: 0))
      }
      token = app.scope(state: \.panels.1).subscribe(PanelModel.self) { _ in
        _ = hostile
      }
    }
    let others = (0..<4).map { index in
      app.scope(state: PanelBoard.paths[index + 4]).subscribe(PanelModel.self) { _ in }
    }
    app.dispatch(BumpBoard())
    token?.cancel()
    token = nil
    app.dispatch(BumpBoard())
    #expect(app.state.panels.6.taps == 1)
    #expect(lateValues == [0, 1])
    app.dispatch(ChangePanel(index: 6, change: .tap, seed: 0))
    #expect(lateValues == [0, 1, 2])
    _ = (others, lateTokens)
  }
}
