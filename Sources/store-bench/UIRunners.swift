import StateStoreUI

/// V1 through the store: row views connected with `store.connect(_:to:id:)` under W1.
///
/// View `k` shows todo `k % todoCount`. The floor is ``ToggleStoreRunner`` with the same
/// subscribers made with `subscribe(to:id:)`.
@MainActor
final class ConnectedRowsRunner: Runner {
  /// A row of the list, counting what it renders into the shared sink.
  final class RowView: ModellableRowView {
    var model: Todo?
    let sink: Sink

    init(sink: Sink) {
      self.sink = sink
    }

    func update(oldModel: Todo?) {
      sink.receive(model)
    }
  }

  let name = "store"
  let store = Store<AppState, Void>(initialState: AppState(todoCount: todoCount))
  let views: Int
  let sink = Sink()
  var rows: [RowView] = []
  var tokens: [Subscription] = []
  var next = 0
  var failures: [String] = []

  init(views: Int) {
    self.views = views
    for k in 0..<views {
      let row = RowView(sink: sink)
      rows.append(row)
      tokens.append(store.connect(row, to: \.todos, id: k % todoCount))
    }
    if sink.count != views {
      failures.append("expected \(views) first updates, counted \(sink.count)")
    }
    sink.reset()
  }

  func perform(_ operations: Int) {
    var index = next
    for _ in 0..<operations {
      store.dispatch(ToggleTodo(id: index))
      index += 1
      if index == todoCount { index = 0 }
    }
    next = index
  }

  func verify(operations: Int) -> [String] {
    let expectation = ToggleExpectation(todoCount: todoCount, operations: operations)
    return failures + expectation.check(doneFlags: store.state.todos.map(\.done))
      + expectation.check(sink, subscribers: views)
  }
}

/// How many todos are done: a view model that changes at every W1 dispatch.
struct DoneCountViewModel: ViewModelWithState {
  let doneCount: Int

  init(state: AppState) {
    doneCount = state.todos.lazy.filter(\.done).count
  }
}

/// O1 through the store, and its floor: one `store.observe(DoneCountViewModel.self)` read after
/// every W1 dispatch, as a SwiftUI body would read it, against one plain
/// `store.subscribe(DoneCountViewModel.self)` whose callback gets the same value.
@MainActor
final class DoneCountRunner: Runner {
  let name: String
  let store = Store<AppState, Void>(initialState: AppState(todoCount: todoCount))
  let sink = Sink()
  var observed: ObservedModel<DoneCountViewModel>?
  var token: Subscription?
  var next = 0

  /// - Parameter observes: `true` for the store's `observe`, `false` for the `subscribe` floor.
  init(observes: Bool) {
    if observes {
      name = "store"
      observed = store.observe(DoneCountViewModel.self)
    } else {
      name = "subscribe floor"
      token = store.subscribe(DoneCountViewModel.self) { [sink] model in
        sink.receive(doneCount: model?.doneCount ?? -1)
      }
      sink.reset()
    }
  }

  func perform(_ operations: Int) {
    var index = next
    for _ in 0..<operations {
      store.dispatch(ToggleTodo(id: index))
      if let observed {
        sink.receive(doneCount: observed.model?.doneCount ?? -1)
      }
      index += 1
      if index == todoCount { index = 0 }
    }
    next = index
  }

  func verify(operations: Int) -> [String] {
    let expectation = ToggleExpectation(todoCount: todoCount, operations: operations)
    var failures = expectation.check(doneFlags: store.state.todos.map(\.done))
    let checksum = expectation.doneCountSum()
    if sink.count != operations || sink.checksum != checksum {
      failures.append(
        "expected \(operations) done counts adding up to \(checksum), "
          + "got \(sink.count) adding up to \(sink.checksum)")
    }
    return failures
  }
}

extension Sink {
  /// Records one done count; the checksum is their sum.
  func receive(doneCount: Int) {
    count += 1
    checksum &+= doneCount
  }
}

extension ToggleExpectation {
  /// The sum, over the operations, of how many todos are done right after each one.
  ///
  /// Toggling todo `i % n` for `i` from 0 makes the count climb 1, 2, ... n, then fall n - 1,
  /// ..., 0: a cycle of `2n` operations adding up to `n²`.
  func doneCountSum() -> Int {
    let n = todoCount
    let remainder = operations % (2 * n)
    let rising = Swift.min(remainder, n)
    var sum = operations / (2 * n) * n * n + rising * (rising + 1) / 2
    if remainder > n {
      // Counts n - 1 down to 2n - remainder.
      let low = 2 * n - remainder
      sum += (n - 1) * n / 2 - (low - 1) * low / 2
    }
    return sum
  }
}
