import StateStoreUI

extension Workload {
  /// V2: W2 with row view models that also read a set in the state, against W2 in the same run.
  static let rowModels = Workload(
    name: "V2", summary: "W2 with 100 row view models that also read a set in the state",
    targetRatio: 2,
    makeRunners: {
      [RowModelRunner(rows: 100), ToggleStoreRunner(subscribers: 100, name: "W2 store")]
    }, ratioFloor: 1, measuresMemory: false)
}

/// W1's todos beside a set of favourites, which every row view model reads.
struct FavouritesState: State {
  var todos = TrackedArray<Todo>()
  var favourites: Set<Int> = []

  init() {}

  /// `todoCount` todos, every seventh a favourite.
  init(todoCount: Int) {
    todos = TrackedArray(makeTodos(count: todoCount))
    favourites = Set(stride(from: 0, to: todoCount, by: 7))
  }
}

/// W1's updater on ``FavouritesState``: toggles the todo with `id`.
struct ToggleFavouriteStateTodo: StateUpdater {
  let id: Int

  func updateState(_ state: inout FavouritesState) {
    state.todos[id: id]?.done.toggle()
  }
}

/// A row of the list as an application writes it: the todo, and whether it is a favourite.
struct TodoRowViewModel: RowViewModel {
  let id: Int
  let title: String
  let done: Bool
  let isFavourite: Bool

  static func shared(in state: FavouritesState) -> Set<Int> { state.favourites }

  init(element todo: Todo, shared favourites: Set<Int>) {
    id = todo.id
    title = todo.title
    done = todo.done
    isFavourite = favourites.contains(todo.id)
  }
}

/// V2 through the store: 100 row view models under W1's dispatches.
///
/// Row `k` is `store.subscribe(TodoRowViewModel.self, to: \.todos, id: k % todoCount)`. Its
/// floor is ``ToggleStoreRunner`` with W2's 100 element subscribers.
@MainActor
final class RowModelRunner: Runner {
  let name = "store"
  let store = Store<FavouritesState, Void>(initialState: FavouritesState(todoCount: todoCount))
  let rows: Int
  let sink = Sink()
  var tokens: [Subscription] = []
  var next = 0
  var failures: [String] = []

  init(rows: Int) {
    self.rows = rows
    for k in 0..<rows {
      let token = store.subscribe(TodoRowViewModel.self, to: \.todos, id: k % todoCount) {
        [sink] row in
        sink.receive(row)
      }
      tokens.append(token)
    }
    if sink.count != rows {
      failures.append("expected \(rows) first deliveries, counted \(sink.count)")
    }
    sink.reset()
  }

  func perform(_ operations: Int) {
    var index = next
    for _ in 0..<operations {
      store.dispatch(ToggleFavouriteStateTodo(id: index))
      index += 1
      if index == todoCount { index = 0 }
    }
    next = index
  }

  func verify(operations: Int) -> [String] {
    let expectation = ToggleExpectation(todoCount: todoCount, operations: operations)
    return failures + expectation.check(doneFlags: store.state.todos.map(\.done))
      + expectation.check(sink, subscribers: rows) + checkFavourites()
  }

  /// Messages for rows whose star disagrees with the set: a fresh row reads it as every row does.
  func checkFavourites() -> [String] {
    var wrong: [Int] = []
    for id in 0..<Swift.min(rows, todoCount) {
      let token = store.subscribe(TodoRowViewModel.self, to: \.todos, id: id) { row in
        if row?.isFavourite != (id % 7 == 0) { wrong.append(id) }
      }
      token.cancel()
    }
    return wrong.isEmpty ? [] : ["rows \(wrong) have the wrong favourite star"]
  }
}

extension Sink {
  /// Records one delivered row, with the checksum of the todo it shows.
  func receive(_ row: TodoRowViewModel?) {
    count += 1
    if let row { checksum &+= row.id &* 2 &+ (row.done ? 1 : 0) }
  }
}
