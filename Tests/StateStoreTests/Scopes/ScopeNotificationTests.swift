// What these tests catch (changes to the library that must turn them red):
// - `_SliceOrigin.mayChange` (Scopes/ScopeLink.swift) comparing the update's bytes with the
//   scope's by `==` instead of `overlaps`, so that a parent scope misses its child scope's
//   change → `parentScopeHearsItsChild`.

import StateStore
import Testing

/// A slice deep inside a row: the scope of an element scope's child.
struct RowDetail: State, Equatable {
  var title = ""
}

struct SetDetailTitle: StateUpdater {
  let title: String
  func updateState(_ state: inout RowDetail) { state.title = title }
}

/// Sixteen words, to push a row's fields far from its start.
struct Block: Equatable {
  var words = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

  static func == (lhs: Block, rhs: Block) -> Bool {
    withUnsafeBytes(of: lhs.words) { left in
      withUnsafeBytes(of: rhs.words) { right in left.elementsEqual(right) }
    }
  }
}

/// A row whose `near` field lies 56 bytes into it and whose `far` field hundreds of bytes in.
struct WideRow: State, Identifiable, Equatable {
  var id = 0
  var a = 0, b = 0, c = 0, d = 0, e = 0, f = 0
  var near = RowDetail()
  var blocks = (Block(), Block(), Block())
  var far = RowDetail()

  static func == (lhs: WideRow, rhs: WideRow) -> Bool {
    lhs.id == rhs.id && lhs.near == rhs.near && lhs.far == rhs.far
      && lhs.blocks.0 == rhs.blocks.0 && lhs.blocks.1 == rhs.blocks.1
      && lhs.blocks.2 == rhs.blocks.2
  }
}

struct WideShell: State, Equatable {
  var counter = 0
  var rows = TrackedArray<WideRow>()
}

/// Counts `RowDone` evaluations.
@MainActor var rowDoneEvaluations = 0

struct RowDone: ViewModelWithState {
  let done: Bool
  init?(state: Row) {
    MainActor.assumeIsolated { rowDoneEvaluations += 1 }
    done = state.done
  }
}

struct ToggleAtRoot: StateUpdater {
  let id: Int
  func updateState(_ state: inout ShellState) { state.rows[id: id]?.done.toggle() }
}

/// A slice whose `==` is hostile: it runs `hostileEqualityHook` (which dispatches, subscribes).
struct HostileSlice: State {
  var value = 0

  static func == (lhs: HostileSlice, rhs: HostileSlice) -> Bool {
    MainActor.assumeIsolated { hostileEqualityHook?() }
    return lhs.value == rhs.value
  }
}

extension HostileSlice: Equatable {}

@MainActor var hostileEqualityHook: (@MainActor () -> Void)?

struct HostileShell: State {
  var count = 0
  var slice = HostileSlice()
}

struct IncrementHostileCount: StateUpdater {
  func updateState(_ state: inout HostileShell) { state.count += 1 }
}

/// Counts `HostileSliceModel` evaluations.
@MainActor var hostileSliceModelEvaluations = 0

struct HostileSliceModel: ViewModelWithState {
  let value: Int
  init?(state: HostileSlice) {
    MainActor.assumeIsolated { hostileSliceModelEvaluations += 1 }
    value = state.value
  }
}

@MainActor
@Suite("Scoped stores: what each update notifies")
struct ScopeNotificationTests {
  @Test("a scope of an element scope's field, 56 bytes deep and more, notifies the row and root")
  func deepFieldUnderAnElementScope() throws {
    #expect(try #require(MemoryLayout<WideRow>.offset(of: \.near)) >= 56)
    #expect(try #require(MemoryLayout<WideRow>.offset(of: \.far)) >= 400)
    var initial = WideShell()
    for id in 1...3 { initial.rows.append(WideRow(id: id)) }
    let app = Store<WideShell, Void>(initialState: initial)
    let row = app.scope(state: \.rows, id: 2)
    var near: [String] = []
    var far: [String] = []
    var atRoot: [String] = []
    var otherRow: [String] = []
    let tokens = [
      row.subscribe(to: \.near.title) { near.append($0) },
      row.subscribe(to: \.far.title) { far.append($0) },
      app.subscribe(to: \.rows, id: 2) {
        atRoot.append("\($0?.near.title ?? "-")/\($0?.far.title ?? "-")")
      },
      app.scope(state: \.rows, id: 3).subscribe(to: \.far.title) { otherRow.append($0) },
    ]
    row.scope(state: \.near).dispatch(SetDetailTitle(title: "near"))
    row.scope(state: \.far).dispatch(SetDetailTitle(title: "far"))
    #expect(near == ["", "near"])
    #expect(far == ["", "far"])
    // Queued behind a root update: the wrapped updater carries the same origin.
    let listener = app.addListener { old, new in
      if new.counter == 1, old.counter == 0 {
        row.scope(state: \.far).dispatch(SetDetailTitle(title: "queued"))
      }
    }
    app.dispatch(BumpWideCounter())
    #expect(app.state.rows[id: 2]?.far.title == "queued")
    #expect(near == ["", "near"])
    #expect(far == ["", "far", "queued"])
    #expect(atRoot == ["/", "near/", "near/far", "near/queued"])
    #expect(otherRow == [""])
    _ = (tokens, listener)
  }

  @Test("a toggle through one of 1,000 element scopes evaluates one view model, not 1,000")
  func elementScopesCostTheChangedRows() {
    var initial = ShellState()
    for id in 0..<1_000 { initial.rows.append(Row(id: id, title: "\(id)")) }
    let app = Store<ShellState, Void>(initialState: initial)
    var delivered: [Int: [Bool]] = [:]
    var tokens: [Subscription] = []
    for id in 0..<1_000 {
      tokens.append(
        app.scope(state: \.rows, id: id).subscribe(RowDone.self) { model in
          delivered[id, default: []].append(model?.done ?? false)
        })
    }
    let subscribed = rowDoneEvaluations
    app.scope(state: \.rows, id: 500).dispatch(ToggleRow())
    #expect(rowDoneEvaluations == subscribed + 1)
    app.dispatch(ToggleAtRoot(id: 7))
    #expect(rowDoneEvaluations == subscribed + 2)
    app.dispatch(BumpCounter())
    #expect(rowDoneEvaluations == subscribed + 2)
    #expect(delivered[500] == [false, true])
    #expect(delivered[7] == [false, true])
    #expect(delivered[8] == [false])
    // Replacing the whole array is more than the journal tells: every row is compared.
    app.dispatch(ReplaceRows(rows: TrackedArray(initial.rows.map { Row(id: $0.id, done: true) })))
    #expect(rowDoneEvaluations == subscribed + 1_002)
    #expect(delivered[8] == [false, true])
    #expect(delivered[7] == [false, true])
    _ = tokens
  }

  @Test("an element scope of an element scope hears its own element, and is released when done")
  func nestedElementScopes() {
    var initial = ProjectShell()
    for project in 1...3 {
      var tasks = TrackedArray<Row>()
      for task in 1...3 { tasks.append(Row(id: task, title: "\(project).\(task)")) }
      initial.projects.append(Project(id: project, tasks: tasks))
    }
    let app = Store<ProjectShell, Void>(initialState: initial)
    weak var weakTask: Store<Row, Void>?
    var seen: [String] = []
    var tokens: [Subscription] = []
    do {
      let task = app.scope(state: \.projects, id: 2).scope(state: \.tasks, id: 3)
      weakTask = task
      tokens.append(task.subscribe(RowDone.self) { seen.append("2.3 \($0?.done ?? false)") })
      let other = app.scope(state: \.projects, id: 1).scope(state: \.tasks, id: 3)
      tokens.append(other.subscribe(RowDone.self) { seen.append("1.3 \($0?.done ?? false)") })
    }
    let subscribed = rowDoneEvaluations
    app.scope(state: \.projects, id: 2).scope(state: \.tasks, id: 3).dispatch(ToggleRow())
    #expect(rowDoneEvaluations == subscribed + 1)
    app.dispatch(ToggleTask(project: 1, task: 3))
    #expect(rowDoneEvaluations == subscribed + 2)
    app.dispatch(ToggleTask(project: 2, task: 1))
    #expect(rowDoneEvaluations == subscribed + 2)
    #expect(seen == ["2.3 false", "1.3 false", "2.3 true", "1.3 true"])
    #expect(app.state.projects[id: 2]?.tasks[id: 3]?.done == true)
    tokens.removeAll()
    app.dispatch(ToggleTask(project: 3, task: 1))
    #expect(weakTask == nil)
  }

  @Test("an id whose hash subscribes and dispatches while element scopes are notified")
  func hostileIDUnderElementScopes() {
    var initial = HostileRows()
    for value in 0..<10 { initial.rows.append(HostileRow(id: HashHookedID(value: value))) }
    let app = Store<HostileRows, Void>(initialState: initial)
    var seen: [String] = []
    var tokens: [Subscription] = []
    for value in [2, 3] {
      tokens.append(
        app.scope(state: \.rows, id: HashHookedID(value: value)).subscribe(to: \.done) {
          seen.append("\(value) \($0)")
        })
    }
    var armed = false
    var fired = false
    // Armed once, after the first updater has returned: the next hash is the element scopes'
    // own look-up, while the root is notifying.
    let listener = app.addListener { _, _ in armed = !fired }
    hostileIDHook = {
      guard armed else { return }
      armed = false
      fired = true
      tokens.append(
        app.scope(state: \.rows, id: HashHookedID(value: 9)).subscribe(to: \.done) {
          seen.append("9 \($0)")
        })
      app.dispatch(ToggleHostileRow(value: 3))
    }
    defer { hostileIDHook = nil }
    app.dispatch(ToggleHostileRow(value: 2))
    listener.cancel()
    hostileIDHook = nil
    app.dispatch(ToggleHostileRow(value: 9))
    // Row 9's scope joins during the look-up of row 2's (its first value at once), hears its
    // row's change later; the toggle of row 3 was queued and applied after the round.
    #expect(seen == ["2 false", "3 false", "9 false", "2 true", "3 true", "9 true"])
    #expect(app.state.rows.filter(\.done).map(\.id.value) == [2, 3, 9])
    _ = tokens
  }

  @Test("element scopes whose tokens are cancelled are released by the next update")
  func cancelledElementScopesAreReleased() {
    var initial = ShellState()
    for id in 0..<10 { initial.rows.append(Row(id: id)) }
    let app = Store<ShellState, Void>(initialState: initial)
    weak var weakRow: Store<Row, Void>?
    var pairs: [String] = []
    var tokens: [Subscription] = []
    do {
      let row = app.scope(state: \.rows, id: 4)
      weakRow = row
      tokens.append(row.subscribe(to: \.done) { _ in })
      tokens.append(row.addListener { old, new in pairs.append("\(old.done)->\(new.done)") })
    }
    app.dispatch(ToggleAtRoot(id: 4))
    #expect(pairs == ["false->true"])
    #expect(weakRow != nil)
    tokens.removeAll()
    // An update that touches no row still sweeps the row scopes that lost their observers.
    app.dispatch(BumpCounter())
    #expect(weakRow == nil)
  }

  @Test("a scope hears the change its child scope dispatches: subscribers and (old, new) listeners")
  func parentScopeHearsItsChild() throws {
    // The child's bytes lie inside the parent's without being all of them: the update's range
    // overlaps the parent's, and is not equal to it.
    #expect(try #require(MemoryLayout<ProfileState>.offset(of: \.avatar)) > 0)
    let app = Store<ShellState, Void>()
    // One scope of the parent with a subscriber only (its slice is kept for `==`), one with a
    // listener only (it keeps the slice from before each update).
    let subscribed = app.scope(state: \.profile)
    let listened = app.scope(state: \.profile)
    var urls: [String] = []
    var changes: [String] = []
    let tokens = [
      subscribed.subscribe(to: \.avatar.url) { urls.append($0) },
      listened.addListener { old, new in changes.append("\(old.avatar.url)→\(new.avatar.url)") },
    ]
    let avatar = app.scope(state: \.profile).scope(state: \.avatar)
    avatar.dispatch(SetAvatar(url: "a.png"))
    avatar.dispatch(SetAvatar(url: "b.png"))
    #expect(app.state.profile.avatar.url == "b.png")
    #expect(urls == ["", "a.png", "b.png"])
    #expect(changes == ["→a.png", "a.png→b.png"])
    _ = tokens
  }

  @Test("root updates that leave an Equatable slice == evaluate none of the scope's view models")
  func rootUpdatesSkipUntouchedSlices() {
    let app = Store<ShellState, Void>()
    let profile = app.scope(state: \.profile)
    var titles: [String?] = []
    var names: [String] = []
    let tokens = [
      profile.subscribe(ProfileTitle.self) { titles.append($0?.text) },
      profile.subscribe(to: \.name) { names.append($0) },
    ]
    let subscribed = profileTitleEvaluations
    for _ in 0..<5 { app.dispatch(BumpCounter()) }
    #expect(profileTitleEvaluations == subscribed)
    app.dispatch(RenameAtRoot(name: "Ada"))
    #expect(profileTitleEvaluations == subscribed + 1)
    #expect(titles == [nil, "Hello, Ada"])
    #expect(names == ["", "Ada"])
    _ = tokens
  }

  @Test("a scope's own dispatch changes its slice in place, and a subscriber joining then is kept")
  func scopedDispatchMutatesInPlace() {
    let app = Store<ListShell, Void>()
    let list = app.scope(state: \.list)
    var counts: [Int?] = []
    var late: [Int?] = []
    let token = list.subscribe(ItemCount.self) { counts.append($0?.count) }
    // A root listener subscribes while the scope's slice has been dropped for the dispatch in
    // progress: the first subscriber, evaluated before it, must still hear the change.
    var lateToken: Subscription?
    let listener = app.addListener { _, new in
      if lateToken == nil, new.list.items.count == 1 {
        lateToken = list.subscribe(to: \.items.count) { late.append($0) }
      }
    }
    for item in 0..<3 { list.dispatch(AppendItem(item: item)) }
    #expect(app.state.list.items == [0, 1, 2])
    #expect(counts == [0, 1, 2, 3])
    #expect(late == [1, 2, 3])
    // The scope kept no copy of the items across its dispatches: the buffer is changed in place
    // (once the root listener, which keeps the old state, is gone).
    listener.cancel()
    let before = app.state.list.items.withUnsafeBufferPointer { $0.baseAddress }
    list.dispatch(AppendItem(item: 3))
    list.dispatch(RemoveLastItem())
    #expect(app.state.list.items.withUnsafeBufferPointer { $0.baseAddress } == before)
    _ = (token, lateToken)
  }

  @Test("a slice whose == dispatches and subscribes: the dispatch is queued, nothing re-evaluated")
  func hostileEquality() {
    let app = Store<HostileShell, Void>()
    let slice = app.scope(state: \.slice)
    var values: [Int?] = []
    var late: [Int?] = []
    var tokens = [slice.subscribe(HostileSliceModel.self) { values.append($0?.value) }]
    var hostileRuns = 0
    hostileEqualityHook = {
      hostileRuns += 1
      guard hostileRuns == 1 else { return }
      app.dispatch(IncrementHostileCount())
      // The store is notifying: applied after this round, never inside `==`.
      #expect(app.state.count == 1)
      tokens.append(slice.subscribe(HostileSliceModel.self) { late.append($0?.value) })
    }
    defer { hostileEqualityHook = nil }
    let subscribed = hostileSliceModelEvaluations
    for _ in 0..<5 { app.dispatch(IncrementHostileCount()) }
    #expect(app.state.count == 6)
    // `==` runs on the first update, the scope's slice not being mirrored yet; from then on the
    // root's bytes at the slice equal the mirror's, and no update asks `==` again.
    #expect(hostileRuns == 1)
    // The late subscriber got the cached value; nothing was evaluated for the root updates.
    #expect(hostileSliceModelEvaluations == subscribed)
    #expect(values == [0])
    #expect(late == [0])
    _ = tokens
  }
}

struct Project: State, Identifiable, Equatable {
  var id = 0
  var tasks = TrackedArray<Row>()
}

struct ProjectShell: State, Equatable {
  var counter = 0
  var projects = TrackedArray<Project>()
}

struct ToggleTask: StateUpdater {
  let project: Int
  let task: Int
  func updateState(_ state: inout ProjectShell) {
    state.projects[id: project]?.tasks[id: task]?.done.toggle()
  }
}

@MainActor var hostileIDHook: (@MainActor () -> Void)?

/// An id whose `hash(into:)` runs `hostileIDHook`, which subscribes and dispatches.
struct HashHookedID: Hashable, Sendable {
  let value: Int

  func hash(into hasher: inout Hasher) {
    MainActor.assumeIsolated { hostileIDHook?() }
    hasher.combine(value)
  }
}

struct HostileRow: State, Identifiable, Equatable {
  var id = HashHookedID(value: -1)
  var done = false
}

struct HostileRows: State, Equatable {
  var rows = TrackedArray<HostileRow>()
}

struct ToggleHostileRow: StateUpdater {
  let value: Int
  func updateState(_ state: inout HostileRows) {
    state.rows[id: HashHookedID(value: value)]?.done.toggle()
  }
}

struct ItemList: State, Equatable {
  var items: [Int] = []

  init() {
    items.reserveCapacity(16)
  }
}

struct ListShell: State, Equatable {
  var counter = 0
  var list = ItemList()
}

struct AppendItem: StateUpdater {
  let item: Int
  func updateState(_ state: inout ItemList) { state.items.append(item) }
}

struct RemoveLastItem: StateUpdater {
  func updateState(_ state: inout ItemList) { state.items.removeLast() }
}

struct ItemCount: ViewModelWithState {
  let count: Int
  init?(state: ItemList) { count = state.items.count }
}

struct BumpWideCounter: StateUpdater {
  func updateState(_ state: inout WideShell) { state.counter += 1 }
}

struct RenameAtRoot: StateUpdater {
  let name: String
  func updateState(_ state: inout ShellState) { state.profile.name = name }
}

struct ReplaceRows: StateUpdater {
  let rows: TrackedArray<Row>
  func updateState(_ state: inout ShellState) { state.rows = rows }
}
