import StateStore

/// S1 and S3 through a scope: W1's `ToggleTodo` dispatched to `app.scope(state: \.feature)`,
/// with row subscribers registered on the scope; `levels` 2 mounts the feature one level deeper
/// to show what a scope of a scope adds.
@MainActor
final class ScopedToggleRunner: Runner {
  let name = "store"
  let app = Store<ShellState, Void>(initialState: ShellState(todoCount: todoCount))
  let scope: Store<AppState, Void>
  let subscribers: Int
  let sink = Sink()
  var tokens: [Subscription] = []
  var next = 0
  var failures: [String] = []

  init(subscribers: Int = 0) {
    self.subscribers = subscribers
    scope = app.scope(state: \.feature)
    for k in 0..<subscribers {
      tokens.append(
        scope.subscribe(to: \.todos, id: k % todoCount) { [sink] todo in sink.receive(todo) })
    }
    if sink.count != subscribers {
      failures.append("expected \(subscribers) first deliveries, counted \(sink.count)")
    }
    sink.reset()
  }

  func perform(_ operations: Int) {
    var index = next
    for _ in 0..<operations {
      scope.dispatch(ToggleTodo(id: index))
      index += 1
      if index == todoCount { index = 0 }
    }
    next = index
  }

  func verify(operations: Int) -> [String] {
    let expectation = ToggleExpectation(todoCount: todoCount, operations: operations)
    var failures = self.failures
    failures += expectation.check(doneFlags: app.state.feature.todos.map(\.done))
    if scope.state.todos.map(\.done) != app.state.feature.todos.map(\.done) {
      failures.append("the scope's state differs from the root's slice")
    }
    failures += expectation.check(sink, subscribers: subscribers)
    return failures
  }
}

/// W1 on the root store, measured beside S1 so the scope's cost reads as a ratio to it.
@MainActor
final class RootStoreRunner: Runner {
  static let label = "root store (W1)"
  let name = RootStoreRunner.label
  let inner = ToggleStoreRunner()

  func perform(_ operations: Int) { inner.perform(operations) }
  func verify(operations: Int) -> [String] { inner.verify(operations: operations) }
}
