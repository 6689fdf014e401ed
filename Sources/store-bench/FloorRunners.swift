/// The plain-code floors: the same state change and the same notifications, written by hand
/// without a store, measured in the same process and the same run as the store.

/// Increments the counter; never inlined, so the floor pays for a call like the store does.
@inline(never)
func incrementCounter(_ state: inout PlainState) {
  state.counter += 1
}

/// Toggles one todo in place; never inlined.
@inline(never)
func toggleTodo(_ state: inout PlainState, at index: Int) {
  state.todos[index].done.toggle()
}

/// Returns a copy of `state` with one todo toggled, the way a reducer that returns a new state
/// works; never inlined.
@inline(never)
func toggledTodo(_ state: PlainState, at index: Int) -> PlainState {
  var copy = state
  copy.todos[index].done.toggle()
  return copy
}

/// W0's floor: a plain `inout` increment through a function call.
@MainActor
final class CounterFloor: Runner {
  let name = "plain mutation floor"
  var state = PlainState(todoCount: todoCount)

  func perform(_ operations: Int) {
    for _ in 0..<operations {
      incrementCounter(&state)
    }
  }

  func verify(operations: Int) -> [String] {
    state.counter == operations ? [] : ["expected counter \(operations), found \(state.counter)"]
  }
}

/// W1's floor: a plain `inout` toggle through a function call; G1's on larger states.
@MainActor
final class ToggleFloor: Runner {
  let name: String
  let todos: Int
  var state: PlainState
  var next = 0

  init(todos: Int = todoCount) {
    self.todos = todos
    name = todos == todoCount ? "plain mutation floor" : "plain mutation floor (\(todos) todos)"
    state = PlainState(todoCount: todos)
  }

  func perform(_ operations: Int) {
    var index = next
    for _ in 0..<operations {
      toggleTodo(&state, at: index)
      index += 1
      if index == todos { index = 0 }
    }
    next = index
  }

  func verify(operations: Int) -> [String] {
    ToggleExpectation(todoCount: todos, operations: operations)
      .check(doneFlags: state.todos.map(\.done))
  }
}

/// W2 and W3's naive floor: every subscriber is a closure with the last todo it saw, and after
/// each change every subscriber compares its todo and is called if it changed.
@MainActor
final class NaiveFloor: Runner {
  struct Entry {
    let index: Int
    var last: Todo
    let callback: (Todo) -> Void
  }

  let name = "naive floor"
  var state = PlainState(todoCount: todoCount)
  var entries: [Entry] = []
  let sink = Sink()
  let subscribers: Int
  var next = 0

  init(subscribers: Int) {
    self.subscribers = subscribers
    for k in 0..<subscribers {
      let index = k % todoCount
      entries.append(
        Entry(index: index, last: state.todos[index]) { [sink] todo in sink.receive(todo) })
    }
  }

  func perform(_ operations: Int) {
    var index = next
    for _ in 0..<operations {
      toggleTodo(&state, at: index)
      for position in entries.indices {
        let todo = state.todos[entries[position].index]
        if todo != entries[position].last {
          entries[position].last = todo
          entries[position].callback(todo)
        }
      }
      index += 1
      if index == todoCount { index = 0 }
    }
    next = index
  }

  func verify(operations: Int) -> [String] {
    let expectation = ToggleExpectation(todoCount: todoCount, operations: operations)
    return expectation.check(doneFlags: state.todos.map(\.done))
      + expectation.check(sink, subscribers: subscribers)
  }
}

/// W2 and W3's indexed floor: subscribers bucketed by the todo they watch, so a change calls
/// exactly the closures of the todo that changed and nothing else.
@MainActor
final class IndexedFloor: Runner {
  let name = "indexed floor"
  var state = PlainState(todoCount: todoCount)
  var buckets = [[(Todo) -> Void]](repeating: [], count: todoCount)
  let sink = Sink()
  let subscribers: Int
  var next = 0

  init(subscribers: Int) {
    self.subscribers = subscribers
    for k in 0..<subscribers {
      buckets[k % todoCount].append { [sink] todo in sink.receive(todo) }
    }
  }

  func perform(_ operations: Int) {
    var index = next
    for _ in 0..<operations {
      toggleTodo(&state, at: index)
      let todo = state.todos[index]
      for callback in buckets[index] {
        callback(todo)
      }
      index += 1
      if index == todoCount { index = 0 }
    }
    next = index
  }

  func verify(operations: Int) -> [String] {
    let expectation = ToggleExpectation(todoCount: todoCount, operations: operations)
    return expectation.check(doneFlags: state.todos.map(\.done))
      + expectation.check(sink, subscribers: subscribers)
  }
}

/// L1's floor: a reducer returning a new state while the old state is still held (so the todos
/// are copied, as in any store that hands out `(old, new)`), then one `(old, new)` listener.
@MainActor
final class CopyFloor: Runner {
  let name = "copy floor"
  var state = PlainState(todoCount: todoCount)
  let sink = Sink()
  let listener: (PlainState, PlainState) -> Void
  var next = 0

  init() {
    listener = { [sink] old, new in
      sink.receive(oldCounter: old.counter, newCounter: new.counter, todoCount: new.todos.count)
    }
  }

  func perform(_ operations: Int) {
    var index = next
    for _ in 0..<operations {
      let old = state
      state = toggledTodo(state, at: index)
      listener(old, state)
      index += 1
      if index == todoCount { index = 0 }
    }
    next = index
  }

  func verify(operations: Int) -> [String] {
    var failures = ToggleExpectation(todoCount: todoCount, operations: operations)
      .check(doneFlags: state.todos.map(\.done))
    let expected = operations * todoCount
    if sink.count != operations || sink.checksum != expected {
      failures.append(
        "expected \(operations) (old, new) pairs with checksum \(expected), "
          + "got \(sink.count) with \(sink.checksum)")
    }
    return failures
  }
}
