import Testing

@testable import StateStore

/// What hostile-but-legal user code does when the store calls it: each firing takes the next
/// action, so a test says what the first, second, … call does, whichever store code makes it.
@MainActor
enum HostileHooks {
  /// Called with both sides' values whenever two identifiers are compared.
  static var onCompare: (Int, Int) -> Void = { _, _ in }
  /// The actions still to take when any identifier is hashed.
  static var onHash: [() -> Void] = []
  /// The actions still to take when the computed list of ``HostileListState`` is read.
  static var onRead: [() -> Void] = []
  /// The actions still to take when a ``ReleaseHook`` is released.
  static var onRelease: [() -> Void] = []
  /// The actions still to take when two ``ComparingCount``s are compared.
  static var onEqual: [() -> Void] = []

  /// Takes and runs the next action of `actions`, if any.
  static func fire(_ actions: inout [() -> Void]) {
    guard !actions.isEmpty else { return }
    let action = actions.removeFirst()
    action()
  }
}

/// An identifier whose `==` and `hash(into:)` run ``HostileHooks``' actions; identifiers 64
/// apart hash alike, so that a look-up of one compares it with the other.
struct HostileID: Hashable, Sendable {
  let value: Int

  static func == (lhs: HostileID, rhs: HostileID) -> Bool {
    MainActor.assumeIsolated { HostileHooks.onCompare(lhs.value, rhs.value) }
    return lhs.value == rhs.value
  }

  func hash(into hasher: inout Hasher) {
    MainActor.assumeIsolated { HostileHooks.fire(&HostileHooks.onHash) }
    hasher.combine(value % 64)
  }
}

struct Cell: Identifiable, Equatable, Sendable {
  let id: HostileID
  var count = 0
}

struct CellState: State {
  var cells = TrackedArray((0..<20).map { Cell(id: HostileID(value: $0)) })
  var other = 0
}

struct BumpCell: StateUpdater {
  let id: Int
  func updateState(_ state: inout CellState) { state.cells[id: HostileID(value: id)]?.count += 1 }
}

struct BumpOther: StateUpdater {
  func updateState(_ state: inout CellState) { state.other += 1 }
}

/// An object whose release runs the next of ``HostileHooks/onRelease``.
final class ReleaseHook: Sendable {
  deinit {
    MainActor.assumeIsolated { HostileHooks.fire(&HostileHooks.onRelease) }
  }
}

/// An increment that holds a ``ReleaseHook``.
struct HookedIncrement: StateUpdater {
  let hook = ReleaseHook()
  func updateState(_ state: inout CounterState) { state.value += 1 }
}

/// A todo that holds a ``ReleaseHook``, equal to any other with its id and title.
struct HookedTodo: Identifiable, Equatable, Sendable {
  let id: Int
  var title: String
  let hook = ReleaseHook()

  static func == (lhs: HookedTodo, rhs: HookedTodo) -> Bool {
    lhs.id == rhs.id && lhs.title == rhs.title
  }
}

struct HookedListState: State {
  var todos = TrackedArray((0..<4).map { HookedTodo(id: $0, title: "todo \($0)") })
}

/// Replaces a todo with an equal one: its subscribers' bucket keeps the old one.
struct RenewTodo: StateUpdater {
  let id: Int
  func updateState(_ state: inout HookedListState) {
    guard let todo = state.todos[id: id] else { return }
    state.todos[id: id] = HookedTodo(id: id, title: todo.title)
  }
}

struct RetitleTodo: StateUpdater {
  let id: Int
  let title: String
  func updateState(_ state: inout HookedListState) { state.todos[id: id]?.title = title }
}

/// A list that the state gives through a getter, which runs ``HostileHooks/onRead``.
struct HostileListState: State {
  var stored = makeTodos(5)
  var rows: TrackedArray<Todo> {
    MainActor.assumeIsolated { HostileHooks.fire(&HostileHooks.onRead) }
    return stored
  }
}

struct ToggleStored: StateUpdater {
  let id: Int
  func updateState(_ state: inout HostileListState) { state.stored[id: id]?.done.toggle() }
}

/// A view model that holds a ``ReleaseHook``, and equals any other of the same count: a new one
/// replaces the cached one without reaching the subscribers, which keep the old one.
struct HookedCount: ViewModelWithState {
  let value: Int
  let hook = ReleaseHook()

  init(state: CounterState) { value = state.value }

  static func == (lhs: HookedCount, rhs: HookedCount) -> Bool { lhs.value == rhs.value }
}

/// A view model whose `==` runs ``HostileHooks/onEqual``'s next action, and that holds a
/// ``ReleaseHook``.
struct ComparingCount: ViewModelWithState {
  let value: Int
  let hook = ReleaseHook()

  init(state: CounterState) { value = state.value }

  static func == (lhs: ComparingCount, rhs: ComparingCount) -> Bool {
    MainActor.assumeIsolated { HostileHooks.fire(&HostileHooks.onEqual) }
    return lhs.value == rhs.value
  }
}

/// Every delivery of row subscribers, by subscriber name, as the identifier it carried.
@MainActor
final class CellLog {
  var heard: [String: [Int]] = [:]
  var tokens: [String: Subscription] = [:]

  /// Subscribes `name` to the cell `id` of `store`.
  func subscribe(_ name: String, to id: Int, in store: Store<CellState, Void>) {
    tokens[name] = store.subscribe(to: \.cells, id: HostileID(value: id)) { [unowned self] cell in
      heard[name, default: []].append(cell?.id.value ?? -1)
    }
  }
}

/// The store calls user code (identifiers' `==` and `hash(into:)`, deinitializers, key-path
/// getters) with no unchecked access open, and a dispatch from that code is queued.
@MainActor
@Suite("Hostile user code: no access open while it runs, every delivery to its own subscriber")
struct HostileUserCodeTests {
  @Test("an id whose == cancels a bucket's last subscriber and dispatches files the new one right")
  func compareCancelsAndDispatches() {
    let store = Store<CellState, Void>(initialState: CellState(), dependencies: ())
    let log = CellLog()
    for id in 0..<10 { log.subscribe("cell \(id)", to: id, in: store) }
    // The first comparison of 5 with 5 (in the array's index) does nothing; the second (in the
    // group's buckets) cancels the only subscriber of 5's bucket and dispatches, which sweeps
    // the bucket away if applied at once, moving the bucket of 9 into its place.
    var fives = 0
    HostileHooks.onCompare = { lhs, rhs in
      guard lhs == 5, rhs == 5 else { return }
      fives += 1
      guard fives == 2 else { return }
      log.tokens["cell 5"]?.cancel()
      store.dispatch(BumpOther())
    }
    log.subscribe("new 5", to: 5, in: store)
    HostileHooks.onCompare = { _, _ in }
    #expect(fives >= 2)
    #expect(store.state.other == 1, "the dispatch from == was applied")
    log.heard = [:]
    for id in 0..<10 { store.dispatch(BumpCell(id: id)) }
    var expected = Dictionary(uniqueKeysWithValues: (0..<10).map { ("cell \($0)", [$0]) })
    expected["cell 5"] = nil
    expected["new 5"] = [5]
    #expect(log.heard == expected, "each subscriber hears its own cell, once")
  }

  @Test("an id whose == subscribes, growing the table mid-look-up, is still filed in its bucket")
  func compareGrowsTable() {
    // Whether a look-up that carried on in the grown table would miss the bucket depends on the
    // process's hash seed; sixteen identifiers make a miss near certain (1 - 2⁻¹⁶).
    for id in 0..<16 {
      let store = Store<CellState, Void>(initialState: CellState(), dependencies: ())
      let log = CellLog()
      // Both hash alike, and `id + 64` (in no cell) comes first in the probe run.
      log.subscribe("absent", to: id + 64, in: store)
      log.subscribe("cell", to: id, in: store)
      var fired = false
      HostileHooks.onCompare = { lhs, rhs in
        guard !fired, Set([lhs, rhs]) == [id, id + 64] else { return }
        fired = true
        for other in 16..<20 { log.subscribe("other \(other)", to: other, in: store) }
      }
      log.subscribe("new", to: id, in: store)
      HostileHooks.onCompare = { _, _ in }
      #expect(fired)
      log.heard = [:]
      store.dispatch(BumpCell(id: id))
      #expect(log.heard == ["cell": [id], "new": [id]], "identifier \(id)")
    }
  }

  @Test("an id whose hash cancels a subscriber and dispatches while a bucket is filed")
  func hashCancelsAndDispatches() {
    let store = Store<CellState, Void>(initialState: CellState(), dependencies: ())
    let log = CellLog()
    for id in 0..<4 { log.subscribe("cell \(id)", to: id, in: store) }
    // The fifth bucket grows the table, which once hashed every identifier again.
    HostileHooks.onHash = [
      {},
      {
        log.tokens["cell 2"]?.cancel()
        store.dispatch(BumpOther())
      },
    ]
    log.subscribe("cell 7", to: 7, in: store)
    log.tokens["cell 2"]?.cancel()
    HostileHooks.onHash = []
    log.subscribe("cell 8", to: 8, in: store)
    log.heard = [:]
    for id in 0..<10 { store.dispatch(BumpCell(id: id)) }
    #expect(
      log.heard == ["cell 0": [0], "cell 1": [1], "cell 3": [3], "cell 7": [7], "cell 8": [8]])
  }

  @Test("a computed row path whose getter dispatches: the dispatch waits for the subscription")
  func computedPathGetterDispatches() {
    let store = Store<HostileListState, Void>(initialState: HostileListState(), dependencies: ())
    var first: [Todo?] = []
    var second: [Todo?] = []
    // The first subscription makes the group, so the second reads the list only to subscribe.
    let firstToken = store.subscribe(to: \.rows, id: 2) { first.append($0) }
    HostileHooks.onRead = [{ store.dispatch(ToggleStored(id: 2)) }]
    let secondToken = store.subscribe(to: \.rows, id: 2) { second.append($0) }
    HostileHooks.onRead = []
    let before = Todo(id: 2, title: "todo number 2")
    let after = Todo(id: 2, title: "todo number 2", done: true)
    #expect(store.state.stored[id: 2] == after)
    #expect(first == [before, after])
    #expect(second == [before, after], "the subscriber hears the change the getter dispatched")
    store.dispatch(ToggleStored(id: 2))
    #expect(second == [before, after, before])
    withExtendedLifetime((firstToken, secondToken)) {}
  }

  @Test("a view model whose release subscribes, released by the sweep and by a new evaluation")
  func viewModelReleaseSubscribes() {
    let store = Store<CounterState, Void>(initialState: CounterState(), dependencies: ())
    var values: [String: [Int?]] = [:]
    var tokens: [String: Subscription] = [:]
    func subscribe(_ name: String) {
      tokens[name] = store.subscribe(HookedCount.self) {
        values[name, default: []].append($0?.value)
      }
    }
    subscribe("a")
    // Each evaluation equal to the cached one replaces it and reaches no subscriber: b's entry
    // ends up the only holder of the model it was given.
    store.dispatch(Increment(by: 0))
    subscribe("b")
    store.dispatch(Increment(by: 0))
    // The sweep drops b's entry, releasing that model.
    HostileHooks.onRelease = [{ subscribe("c") }]
    tokens["b"]?.cancel()
    store.dispatch(Increment(by: 0))
    #expect(HostileHooks.onRelease.isEmpty, "the sweep released b's model")
    // The cached model is now held by the group alone: the next evaluation releases it.
    HostileHooks.onRelease = [{ subscribe("d") }]
    store.dispatch(Increment(by: 0))
    #expect(HostileHooks.onRelease.isEmpty, "the new evaluation released the cached model")
    HostileHooks.onRelease = []
    store.dispatch(Increment())
    #expect(values["a"] == [0, 1])
    #expect(values["b"] == [0])
    #expect(values["c"] == [0, 1])
    #expect(values["d"] == [0, 1])
    withExtendedLifetime(tokens) {}
  }

  @Test(
    "a view model whose == subscribes and dispatches and whose release subscribes, replaced by a delivery"
  )
  func viewModelEqualityAndReleaseDuringDelivery() {
    let store = Store<CounterState, Void>(initialState: CounterState(), dependencies: ())
    var values: [String: [Int?]] = [:]
    var tokens: [String: Subscription] = [:]
    func subscribe(_ name: String) {
      tokens[name] = store.subscribe(ComparingCount.self) {
        values[name, default: []].append($0?.value)
      }
    }
    subscribe("a")
    // a's delivery compares its last model with the new one (the `==` subscribes b and
    // dispatches), then replaces it: the replaced model, a's alone, subscribes c as it goes.
    HostileHooks.onEqual = [
      {
        subscribe("b")
        store.dispatch(Increment())
      }
    ]
    HostileHooks.onRelease = [{ subscribe("c") }]
    store.dispatch(Increment())
    #expect(HostileHooks.onEqual.isEmpty, "a's comparison ran the hook")
    #expect(HostileHooks.onRelease.isEmpty, "a's replaced model was released")
    HostileHooks.onEqual = []
    HostileHooks.onRelease = []
    #expect(values["a"] == [0, 1, 2])
    #expect(values["b"] == [1, 2])
    #expect(values["c"] == [1, 2])
    #expect(store.state.value == 2)
    withExtendedLifetime(tokens) {}
  }

  @Test("a queued updater whose release dispatches, released as the queue empties: nothing lost")
  func queuedUpdaterReleaseDispatches() {
    let store = Store<CounterState, Void>(initialState: CounterState(), dependencies: ())
    var once = true
    let token = store.addListener { _, _ in
      guard once else { return }
      once = false
      store.dispatch(HookedIncrement())
      store.dispatch(Append(number: 1))
    }
    HostileHooks.onRelease = [{ store.dispatch(Append(number: 2)) }]
    store.dispatch(Increment())
    #expect(HostileHooks.onRelease.isEmpty, "the queued updater was released")
    HostileHooks.onRelease = []
    #expect(store.state.value == 2)
    #expect(store.state.log == [1, 2], "the dispatch from the release was applied, in order")
    withExtendedLifetime(token) {}
  }

  @Test("an element whose release subscribes, released by the sweep of its emptied group")
  func elementReleaseSubscribes() {
    let store = Store<HookedListState, Void>(initialState: HookedListState(), dependencies: ())
    var heard: [String: [String?]] = [:]
    var tokens: [String: Subscription] = [:]
    func subscribe(_ name: String, to id: Int) {
      tokens[name] = store.subscribe(to: \.todos, id: id) {
        heard[name, default: []].append($0?.title)
      }
    }
    subscribe("first", to: 1)
    // The bucket of 1 is left the only holder of the todo it was given.
    store.dispatch(RenewTodo(id: 1))
    HostileHooks.onRelease = [{ subscribe("from release", to: 2) }]
    tokens["first"]?.cancel()
    store.dispatch(RenewTodo(id: 3))
    #expect(HostileHooks.onRelease.isEmpty, "the sweep released the todo")
    HostileHooks.onRelease = []
    subscribe("later", to: 3)
    #expect(
      store._elementOrder.count == 1, "the group that gained a subscriber was kept, not made again")
    heard = [:]
    store.dispatch(RetitleTodo(id: 2, title: "two"))
    store.dispatch(RetitleTodo(id: 3, title: "three"))
    #expect(heard == ["from release": ["two"], "later": ["three"]])
    withExtendedLifetime(tokens) {}
  }
}
