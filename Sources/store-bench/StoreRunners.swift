import StateStore

/// How many todos the state holds in every workload.
let todoCount = 1_000

/// W0 through the store: `store.dispatch(Increment())` with nobody listening.
@MainActor
final class CounterStoreRunner: Runner {
  let name = "store"
  let store = Store<AppState, Void>(initialState: AppState(todoCount: todoCount))

  func perform(_ operations: Int) {
    for _ in 0..<operations {
      store.dispatch(Increment())
    }
  }

  func verify(operations: Int) -> [String] {
    store.state.counter == operations
      ? [] : ["expected counter \(operations), found \(store.state.counter)"]
  }
}

/// W1, W2, W3, L1 and G1 through the store: `store.dispatch(ToggleTodo(id:))`, cycling through
/// the todos, with row subscribers and an `(old, new)` listener registered the way an app does.
@MainActor
final class ToggleStoreRunner: Runner {
  /// G1's reference: the store's W1 on 1,000 todos, measured beside the larger states.
  static let referenceLabel = "W1 store (1,000 todos)"

  let name: String
  let store: Store<AppState, Void>
  let todos: Int
  let subscribers: Int
  let sink = Sink()
  var tokens: [Subscription] = []
  var next = 0
  var failures: [String] = []

  /// - Parameters:
  ///   - todos: How many todos the state holds; 1,000 except in G1.
  ///   - name: "store", or the name of a workload that uses this runner as its floor.
  init(todos: Int = todoCount, subscribers: Int = 0, listens: Bool = false, name: String = "store")
  {
    self.name = name
    self.todos = todos
    self.subscribers = subscribers
    store = Store(initialState: AppState(todoCount: todos))
    for k in 0..<subscribers {
      let token = store.subscribe(to: \.todos, id: k % todos) { [sink] todo in
        sink.receive(todo)
      }
      tokens.append(token)
    }
    if sink.count != subscribers {
      failures.append("expected \(subscribers) first deliveries, counted \(sink.count)")
    }
    sink.reset()
    if listens {
      tokens.append(
        store.addListener { [sink] old, new in
          sink.receive(
            oldCounter: old.counter, newCounter: new.counter, todoCount: new.todos.count)
        })
    }
  }

  func perform(_ operations: Int) {
    var index = next
    for _ in 0..<operations {
      store.dispatch(ToggleTodo(id: index))
      index += 1
      if index == todos { index = 0 }
    }
    next = index
  }

  func verify(operations: Int) -> [String] {
    let expectation = ToggleExpectation(todoCount: todos, operations: operations)
    var failures = self.failures
    failures += expectation.check(doneFlags: store.state.todos.map(\.done))
    if tokens.count > subscribers {
      let expected = operations * todos
      if sink.count != operations || sink.checksum != expected {
        failures.append(
          "expected \(operations) (old, new) pairs with checksum \(expected), "
            + "got \(sink.count) with \(sink.checksum)")
      }
    } else {
      failures += expectation.check(sink, subscribers: subscribers)
    }
    return failures
  }
}

/// P1's cause floor: W1 on a plain store, reading the dispatch's cause (`DispatchCause.current`,
/// a task-local value) once per dispatch, as a journal that records each entry's cause must.
///
/// It reads it as the store does, through `TaskLocal`'s public getter, so it says what recording
/// causes costs the store on the processor the run is on, and P1's figure can be read as W1,
/// that read, and what journaling adds to both.
@MainActor
final class CauseReadingToggleRunner: Runner {
  static let label = "W1 + cause read"

  let name = CauseReadingToggleRunner.label
  let store = Store<AppState, Void>(initialState: AppState(todoCount: todoCount))
  var next = 0
  var causes = 0
  var dispatched = 0

  func perform(_ operations: Int) {
    var index = next
    var causes = 0
    for _ in 0..<operations {
      store.dispatch(ToggleTodo(id: index))
      if DispatchCause.current != nil { causes += 1 }
      index += 1
      if index == todoCount { index = 0 }
    }
    next = index
    self.causes += causes
    dispatched += operations
  }

  func verify(operations: Int) -> [String] {
    var failures = ToggleExpectation(todoCount: todoCount, operations: operations)
      .check(doneFlags: store.state.todos.map(\.done))
    if causes != 0 { failures.append("read \(causes) causes where none was set") }
    if dispatched != operations {
      failures.append("read the cause \(dispatched) times of \(operations)")
    }
    return failures
  }
}
