import StateStore

/// How many row subscribers SUB makes and cancels in one operation.
let subscribeBatch = 10_000

/// SUB through the store: subscribe, cancel, and one toggle that must notify nobody.
///
/// Subscribes ``subscribeBatch`` row subscribers with `store.subscribe(to:id:)` (subscriber `k`
/// watches todo `k % 1000`), cancels every token, then dispatches one toggle, which sweeps the
/// cancelled entries. The figures are per subscriber.
@MainActor
final class SubscribeCancelRunner: Runner {
  let name = "store"
  let store = Store<AppState, Void>(initialState: AppState(todoCount: todoCount))
  let sink = Sink()
  var next = 0

  var entriesPerOperation: Int { subscribeBatch }

  func perform(_ operations: Int) {
    var tokens: [Subscription] = []
    tokens.reserveCapacity(subscribeBatch)
    for _ in 0..<operations {
      for k in 0..<subscribeBatch {
        tokens.append(
          store.subscribe(to: \.todos, id: k % todoCount) { [sink] in sink.receive($0) })
      }
      for token in tokens { token.cancel() }
      tokens.removeAll(keepingCapacity: true)
      store.dispatch(ToggleTodo(id: next))
      next = next == todoCount - 1 ? 0 : next + 1
    }
  }

  func verify(operations: Int) -> [String] {
    subscribeFailures(
      sink, doneFlags: store.state.todos.map(\.done), operations: operations)
  }
}

/// SUB's floor: the same closures appended to per-todo buckets (each first called with its
/// todo, as a subscriber gets its first value), then removed, then the same toggle, delivered
/// to the now empty bucket.
@MainActor
final class BucketFloor: Runner {
  let name = "bucket floor"
  var state = PlainState(todoCount: todoCount)
  var buckets = [[(Todo) -> Void]](repeating: [], count: todoCount)
  let sink = Sink()
  var next = 0

  var entriesPerOperation: Int { subscribeBatch }

  func perform(_ operations: Int) {
    for _ in 0..<operations {
      for k in 0..<subscribeBatch {
        let index = k % todoCount
        let callback: (Todo) -> Void = { [sink] in sink.receive($0) }
        buckets[index].append(callback)
        callback(state.todos[index])
      }
      for k in (0..<subscribeBatch).reversed() {
        buckets[k % todoCount].removeLast()
      }
      toggleTodo(&state, at: next)
      for callback in buckets[next] { callback(state.todos[next]) }
      next = next == todoCount - 1 ? 0 : next + 1
    }
  }

  func verify(operations: Int) -> [String] {
    subscribeFailures(sink, doneFlags: state.todos.map(\.done), operations: operations)
  }
}

/// SUB's checks: one first value per subscriber and nothing after the cancellation, and one
/// toggle per operation.
func subscribeFailures(_ sink: Sink, doneFlags: [Bool], operations: Int) -> [String] {
  var failures = ToggleExpectation(todoCount: todoCount, operations: operations)
    .check(doneFlags: doneFlags)
  let expected = operations * subscribeBatch
  if sink.count != expected {
    failures.append("expected \(expected) deliveries (first values only), counted \(sink.count)")
  }
  return failures
}
