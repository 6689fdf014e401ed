import Testing

@testable import StateStore

// The application's code that runs inside an updater's `inout` access to the root's state (an
// id's `==` or `hash(into:)`, which `TrackedArray`'s look-up by id calls) may dispatch through
// an element scope, a scope under one, or a plain scope. Such a dispatch must be queued without
// reading the root's state: the scope's element is looked up, and its drop decided, when the
// queued dispatch runs, after the updater's access has ended (see the top of
// `RootEngine.swift`).
//
// The id below proves it: the dispatch path looks an element up by id on the array it read out
// of the root, so an id's `==` or `hash(into:)` called during the hook's own dispatch while the
// root is still inside its updater is a read of the root's state inside that access.

/// Runs once, at the next `SpyID.==` or `SpyID.hash(into:)`, then clears itself.
@MainActor private var lookupHook: (@MainActor () -> Void)?
/// True while the hook runs.
@MainActor private var insideHook = false
/// Whether the root under test is inside its updater's access.
@MainActor private var rootIsApplying: (@MainActor () -> Bool)?
/// Look-ups by id that the hook's dispatches made while the root was inside its updater.
@MainActor private var lookupsInsideUpdater = 0
/// The updaters applied, in order.
@MainActor private var applied: [String] = []

@MainActor private func observeLookup() {
  if insideHook, rootIsApplying?() == true { lookupsInsideUpdater += 1 }
  guard let hook = lookupHook else { return }
  lookupHook = nil
  insideHook = true
  hook()
  insideHook = false
}

/// An id whose `==` and `hash(into:)` report to `observeLookup()`.
private struct SpyID: Hashable, Sendable, CustomStringConvertible {
  let value: Int

  static func == (lhs: Self, rhs: Self) -> Bool {
    MainActor.assumeIsolated { observeLookup() }
    return lhs.value == rhs.value
  }

  func hash(into hasher: inout Hasher) {
    MainActor.assumeIsolated { observeLookup() }
    hasher.combine(value)
  }

  var description: String { "\(value)" }
}

private struct SpyItem: State, Identifiable, Equatable {
  var id = SpyID(value: -1)
  var count = 0
  var note = SpyItemNote()
}

private struct SpyItemNote: State, Equatable {
  var count = 0
}

private struct SpyRowDetail: State, Equatable {
  var count = 0
}

private struct SpyRow: State, Identifiable, Equatable {
  var id = SpyID(value: -1)
  var count = 0
  var detail = SpyRowDetail()
  var items = TrackedArray<SpyItem>()
}

private struct SpyTable: State, Equatable {
  var counter = 0
  var rows = TrackedArray<SpyRow>()

  init() {}

  init(rowCount: Int) {
    rows = TrackedArray(
      (0..<rowCount).map { value in
        SpyRow(
          id: SpyID(value: value),
          items: TrackedArray((0..<3).map { SpyItem(id: SpyID(value: $0)) }))
      })
  }
}

private struct BumpSpyRow: StateUpdater {
  let tag: String
  func updateState(_ state: inout SpyRow) {
    MainActor.assumeIsolated { applied.append(tag) }
    state.count += 1
  }
}

private struct BumpSpyDetail: StateUpdater {
  let tag: String
  func updateState(_ state: inout SpyRowDetail) {
    MainActor.assumeIsolated { applied.append(tag) }
    state.count += 1
  }
}

private struct BumpSpyItem: StateUpdater {
  let tag: String
  func updateState(_ state: inout SpyItem) {
    MainActor.assumeIsolated { applied.append(tag) }
    state.count += 1
  }
}

private struct BumpSpyNote: StateUpdater {
  let tag: String
  func updateState(_ state: inout SpyItemNote) {
    MainActor.assumeIsolated { applied.append(tag) }
    state.count += 1
  }
}

private struct BumpSpyCounter: StateUpdater {
  let tag: String
  func updateState(_ state: inout SpyTable) {
    MainActor.assumeIsolated { applied.append(tag) }
    state.counter += 1
  }
}

/// Looks row `value` up by id inside the root's access, which runs the id's code there.
private struct BumpSpyRowAtRoot: StateUpdater {
  let value: Int
  func updateState(_ state: inout SpyTable) {
    MainActor.assumeIsolated { applied.append("root \(value)") }
    state.rows[id: SpyID(value: value)]?.count += 10
  }
}

/// Removes row `value`, looking it up by id inside the root's access.
private struct RemoveSpyRowAtRoot: StateUpdater {
  let value: Int
  func updateState(_ state: inout SpyTable) {
    MainActor.assumeIsolated { applied.append("remove \(value)") }
    state.rows[id: SpyID(value: value)] = nil
  }
}

/// A dispatchable that is not an updater: it goes through the root's interceptors, then starts
/// on the scope it was dispatched through.
private struct Ping: ExecutableDispatchable {
  let tag: String
  func _start<S: State, D: Sendable>(in store: Store<S, D>) {
    applied.append("\(tag) on \(store.scopePath ?? "root")")
  }
}

@MainActor
@Suite("A dispatch through a scope from inside an updater reads nothing until it runs", .serialized)
struct ScopedDispatchInsideUpdaterTests {
  init() {
    lookupHook = nil
    insideHook = false
    rootIsApplying = nil
    lookupsInsideUpdater = 0
    applied = []
  }

  private func makeApp(observed: Bool) -> (
    Store<SpyTable, Void>, [Store<SpyRow, Void>], [Subscription]
  ) {
    let app = Store<SpyTable, Void>(initialState: SpyTable(rowCount: 5))
    let rows = (0..<5).map { app.scope(state: \.rows, id: SpyID(value: $0)) }
    var tokens: [Subscription] = []
    if observed {
      tokens = rows.map { row in row.subscribe(to: \.count) { _ in } }
    }
    // Every row found once (and, observed, filed in its bucket), so that a dispatch through
    // one could take the way that reads the element where it was last found.
    for (index, row) in rows.enumerated() { row.dispatch(BumpSpyRow(tag: "warm \(index)")) }
    rootIsApplying = { [unowned app] in app._rootEngine._isApplyingUpdater }
    applied = []
    return (app, rows, tokens)
  }

  /// Element scopes, a scope under one, an element scope of one and a scope under that,
  /// dispatched to from an id's code inside the root's updater.
  @Test(
    "dispatches from inside the updater are applied after it, in order", arguments: [false, true])
  func dispatchesFromInsideTheUpdater(observed: Bool) {
    let (app, rows, tokens) = makeApp(observed: observed)
    let detail = rows[3].scope(state: \.detail)
    let item = rows[4].scope(state: \.items, id: SpyID(value: 1))
    let itemNote = item.scope(state: \.note)
    detail.dispatch(BumpSpyDetail(tag: "warm detail"))
    item.dispatch(BumpSpyItem(tag: "warm item"))
    applied = []
    lookupHook = {
      rows[1].dispatch(BumpSpyRow(tag: "row 1"))
      app.dispatch(BumpSpyCounter(tag: "counter"))
      detail.dispatch(BumpSpyDetail(tag: "detail 3"))
      item.dispatch(BumpSpyItem(tag: "item 4/1"))
      itemNote.dispatch(BumpSpyNote(tag: "note 4/1"))
      rows[1].dispatch(any: BumpSpyRow(tag: "row 1 again"))
    }
    app.dispatch(BumpSpyRowAtRoot(value: 2))
    #expect(lookupHook == nil)
    #expect(lookupsInsideUpdater == 0)
    #expect(
      applied == [
        "root 2", "row 1", "counter", "detail 3", "item 4/1", "note 4/1", "row 1 again",
      ])
    let state = app.state
    #expect(state.counter == 1)
    #expect(state.rows.map { $0.count } == [1, 3, 11, 1, 1])
    #expect(state.rows[id: SpyID(value: 3)]?.detail.count == 2)
    #expect(state.rows[id: SpyID(value: 4)]?.items[id: SpyID(value: 1)]?.count == 2)
    #expect(state.rows[id: SpyID(value: 4)]?.items[id: SpyID(value: 1)]?.note.count == 1)
    _ = tokens
  }

  @Test(
    "a dispatch to the element the updater removes is dropped in its turn",
    arguments: [false, true])
  func dispatchToTheElementTheUpdaterRemoves(observed: Bool) {
    let (app, rows, tokens) = makeApp(observed: observed)
    let detail = rows[2].scope(state: \.detail)
    var errors: [ScopeDispatchDroppedError] = []
    let record: @MainActor (any Error, any Dispatchable) -> Void = { error, _ in
      if let error = error as? ScopeDispatchDroppedError { errors.append(error) }
    }
    rows[2].onUnhandledError = record
    rows[3].onUnhandledError = record
    detail.onUnhandledError = record
    lookupHook = {
      rows[2].dispatch(BumpSpyRow(tag: "row 2"))
      detail.dispatch(BumpSpyDetail(tag: "detail 2"))
      rows[3].dispatch(BumpSpyRow(tag: "row 3"))
      rows[2].dispatch(any: Ping(tag: "ping 2"))
      rows[3].dispatch(any: Ping(tag: "ping 3"))
    }
    app.dispatch(RemoveSpyRowAtRoot(value: 2))
    #expect(lookupHook == nil)
    #expect(lookupsInsideUpdater == 0)
    #expect(applied == ["remove 2", "row 3", "ping 3 on rows"])
    #expect(errors.map(\.reason) == Array(repeating: .elementRemoved(id: "2"), count: 3))
    #expect(errors.map(\.scope) == ["rows", "rows/detail", "rows"])
    #expect(errors.map(\.dispatchableType).last?.hasSuffix("Ping") == true)
    let state = app.state
    #expect(state.rows.map { $0.id.value } == [0, 1, 3, 4])
    #expect(state.rows.map { $0.count } == [1, 1, 2, 1])
    _ = tokens
  }
}
