import Testing

@testable import StateStore

/// A todo whose comparisons are counted, to prove which subscribers the store evaluates.
struct CountedTodo: Identifiable, Sendable {
  var id: Int
  var done = false
}

@MainActor var countedComparisons = 0

extension CountedTodo: Equatable {
  static func == (lhs: CountedTodo, rhs: CountedTodo) -> Bool {
    MainActor.assumeIsolated { countedComparisons += 1 }
    return lhs.id == rhs.id && lhs.done == rhs.done
  }
}

struct CountedState: State {
  var rows = TrackedArray((0..<1000).map { CountedTodo(id: $0) })
}

struct ToggleCounted: StateUpdater {
  let id: Int
  func updateState(_ state: inout CountedState) { state.rows[id: id]?.done.toggle() }
}

@MainActor
@Suite("Element subscriptions: a row hears only about its own element")
struct ElementSubscriptionTests {
  @Test("a row subscriber gets its element at once and then only its own changes")
  func onlyOwnChanges() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(10)))
    var received: [Todo?] = []
    let token = store.subscribe(to: \.todos, id: 3) { received.append($0) }
    #expect(received == [Todo(id: 3, title: "todo number 3")])
    store.dispatch(Toggle(id: 4))
    store.dispatch(SetFilter(filter: "open"))
    store.dispatch(Rename(id: 3, title: "todo number 3"))
    #expect(received.count == 1, "unrelated and no-op changes are not delivered")
    store.dispatch(Toggle(id: 3))
    #expect(received.last??.done == true)
    store.dispatch(RemoveTodo(id: 3))
    #expect(received.count == 3)
    #expect(received.last == .some(nil), "a removed element is delivered as nil")
    store.dispatch(AddTodo(todo: Todo(id: 3, title: "back")))
    #expect(received.last??.title == "back")
    _ = token
  }

  @Test("only the changed elements' subscribers are evaluated")
  func evaluatesOnlyChanged() {
    let store = Store<CountedState, Void>(initialState: CountedState())
    var deliveries = 0
    let tokens = (0..<10_000).map { k in
      store.subscribe(to: \.rows, id: k % 1000) { _ in deliveries += 1 }
    }
    #expect(deliveries == 10_000)
    deliveries = 0
    countedComparisons = 0
    store.dispatch(ToggleCounted(id: 7))
    #expect(deliveries == 10, "the ten subscribers of row 7, nobody else")
    #expect(
      countedComparisons == 1,
      "one comparison for the changed row, shared by its ten subscribers; none for other rows")
    _ = tokens
  }

  @Test("a row subscribed from a listener, before its group caught up, hears each value once")
  func lateSubscriberHearsEachValueOnce() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(3)))
    var early: [Bool?] = []
    var late: [Bool?] = []
    var lateToken: Subscription?
    let earlyToken = store.subscribe(to: \.todos, id: 1) { early.append($0?.done) }
    let listener = store.addListener { _, _ in
      guard lateToken == nil else { return }
      // The listener runs before element subscribers: row 1 has changed, its group not yet.
      lateToken = store.subscribe(to: \.todos, id: 1) { late.append($0?.done) }
    }
    store.dispatch(Toggle(id: 1))
    #expect(early == [false, true])
    #expect(late == [true], "given the new value at once, and not again by the group")
    store.dispatch(Toggle(id: 1))
    #expect(early == [false, true, false])
    #expect(late == [true, false], "filed in its bucket, it hears the next change")
    store.dispatch(Toggle(id: 2))
    #expect(late == [true, false])
    _ = (earlyToken, listener)
  }

  @Test("a stale lookup hint, left by a copy, never sends a write to the wrong element")
  func staleLookupHint() {
    var todos = makeTodos(5)
    let copy = todos
    #expect(copy[id: 4]?.id == 4)  // leaves the shared hint at position 4
    todos.remove(id: 0)  // position 4 is now past the end; id 4 is at position 3
    todos[id: 4] = Todo(id: 4, title: "four")
    #expect(copy[id: 3]?.id == 3)  // the hint says 3, where `todos` now holds id 4
    todos[id: 3] = Todo(id: 3, title: "three")
    #expect(todos.map(\.title) == ["todo number 1", "todo number 2", "three", "four"])
    #expect(todos.ids == [1, 2, 3, 4])
    #expect(copy.map(\.done) == [false, false, false, false, false])
  }

  @Test("many changes in one dispatch, beyond the journal, still reach every subscriber")
  func journalOverflow() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(200)))
    var received: [Int: [Bool]] = [:]
    let tokens = stride(from: 0, to: 200, by: 7).map { id in
      store.subscribe(to: \.todos, id: id) { received[id, default: []].append($0?.done ?? false) }
    }
    store.dispatch(ToggleAll())
    store.dispatch(Toggle(id: 7))
    for id in stride(from: 0, to: 200, by: 7) {
      #expect(received[id] == (id == 7 ? [false, true, false] : [false, true]), "row \(id)")
    }
    _ = tokens
  }

  @Test("replacing the whole array re-checks every subscribed element")
  func wholeReplacement() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(3)))
    var first: [String?] = []
    var second: [String?] = []
    let tokens = [
      store.subscribe(to: \.todos, id: 0) { first.append($0?.title) },
      store.subscribe(to: \.todos, id: 1) { second.append($0?.title) },
    ]
    store.dispatch(
      ReplaceAll(todos: [Todo(id: 0, title: "todo number 0"), Todo(id: 1, title: "new")]))
    #expect(first == ["todo number 0"])
    #expect(second == ["todo number 1", "new"])
    _ = tokens
  }

  @Test("an element subscription added for a missing id hears when it appears")
  func missingElementAppears() {
    let store = Store<ListState, Void>()
    var received: [String?] = []
    let token = store.subscribe(to: \.todos, id: 42) { received.append($0?.title) }
    store.dispatch(AddTodo(todo: Todo(id: 1, title: "other")))
    store.dispatch(AddTodo(todo: Todo(id: 42, title: "mine")))
    #expect(received == [nil, "mine"])
    _ = token
  }

  @Test("a bucket calls its subscribers in the order they joined, across sweeps and reused indices")
  func bucketOrderAcrossSweeps() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(3)))
    var calls: [Int] = []
    var tokens: [Int: Subscription] = [:]
    for k in 0..<6 {
      tokens[k] = store.subscribe(to: \.todos, id: 1) { _ in calls.append(k) }
    }
    calls = []
    store.dispatch(Toggle(id: 1))
    #expect(calls == [0, 1, 2, 3, 4, 5])
    for k in [0, 3, 5] { tokens[k]?.cancel() }
    store.dispatch(Toggle(id: 2))
    #expect(calls == [0, 1, 2, 3, 4, 5], "the sweep calls nobody")
    calls = []
    for k in 6..<9 {
      tokens[k] = store.subscribe(to: \.todos, id: 1) { _ in calls.append(k) }
    }
    #expect(calls == [6, 7, 8], "each new subscriber gets its first value, in the swept indices")
    calls = []
    store.dispatch(Toggle(id: 1))
    #expect(calls == [1, 2, 4, 6, 7, 8])
    withExtendedLifetime(tokens) {}
  }

  @Test("a sweep that empties some buckets leaves every other bucket reachable by its element")
  func sweepRemovesSomeBuckets() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(300)))
    var calls: [Int] = []
    var tokens: [Int: Subscription] = [:]
    for id in 0..<200 {
      tokens[id] = store.subscribe(to: \.todos, id: id) { todo in calls.append(todo?.id ?? -1) }
    }
    for id in stride(from: 0, to: 200, by: 3) { tokens[id]?.cancel() }
    store.dispatch(Toggle(id: 250))
    calls = []
    for id in 0..<200 { store.dispatch(Toggle(id: id)) }
    #expect(calls == (0..<200).filter { $0 % 3 != 0 }, "each live row once, no cancelled one")
    for id in stride(from: 0, to: 200, by: 3) {
      tokens[id] = store.subscribe(to: \.todos, id: id) { todo in calls.append(todo?.id ?? -1) }
    }
    calls = []
    for id in 0..<200 { store.dispatch(Toggle(id: id)) }
    #expect(calls == Array(0..<200), "a bucket made again after its removal is found")
    withExtendedLifetime(tokens) {}
  }

  @Test(
    "a subscriber added by a callback of its bucket is not called again that round, then comes last"
  )
  func joinDuringDelivery() {
    let store = Store<ListState, Void>(initialState: ListState(todos: makeTodos(3)))
    var calls: [String] = []
    var rounds = 0
    var added: Subscription?
    let first = store.subscribe(to: \.todos, id: 1) { _ in
      calls.append("first")
      rounds += 1
      // Its first value is round 1; the first change, round 2, adds a subscriber.
      guard rounds == 2 else { return }
      added = store.subscribe(to: \.todos, id: 1) { _ in calls.append("added") }
    }
    let second = store.subscribe(to: \.todos, id: 1) { _ in calls.append("second") }
    calls = []
    store.dispatch(Toggle(id: 1))
    #expect(calls == ["first", "added", "second"], "the new one hears its first value only")
    calls = []
    store.dispatch(Toggle(id: 1))
    #expect(calls == ["first", "second", "added"])
    withExtendedLifetime((first, second, added)) {}
  }
}
