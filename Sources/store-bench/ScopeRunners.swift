import Foundation
import StateStore

/// S1, S2 and S3 through a scope: W1's `ToggleTodo` dispatched to `app.scope(state: \.feature)`,
/// with row subscribers registered on the scope; `nested` mounts the feature one level deeper
/// and dispatches through a scope of a scope (S2), to show what the second level adds.
@MainActor
final class ScopedToggleRunner: Runner {
  let name = "store"
  let scope: Store<AppState, Void>
  /// The todos' done flags, read through the root; it also keeps the root alive, which a
  /// scope does not.
  let rootDoneFlags: @MainActor () -> [Bool]
  let subscribers: Int
  let sink = Sink()
  var tokens: [Subscription] = []
  var next = 0
  var failures: [String] = []

  init(subscribers: Int = 0, nested: Bool = false) {
    self.subscribers = subscribers
    if nested {
      let app = Store<NestedShellState, Void>(
        initialState: NestedShellState(todoCount: todoCount))
      scope = app.scope(state: \.outer).scope(state: \.feature)
      rootDoneFlags = { app.state.outer.feature.todos.map(\.done) }
    } else {
      let app = Store<ShellState, Void>(initialState: ShellState(todoCount: todoCount))
      scope = app.scope(state: \.feature)
      rootDoneFlags = { app.state.feature.todos.map(\.done) }
    }
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
    let rootFlags = rootDoneFlags()
    failures += expectation.check(doneFlags: rootFlags)
    if scope.state.todos.map(\.done) != rootFlags {
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

extension Todo: State {
  init() {
    self.init(id: 0, title: "", done: false)
  }
}

/// A row feature's updater: toggles its own todo.
struct ToggleDone: StateUpdater {
  func updateState(_ state: inout Todo) {
    state.done.toggle()
  }
}

/// What a row feature renders.
struct TodoDoneModel: ViewModelWithState {
  let id: Int
  let done: Bool

  init?(state: Todo) {
    id = state.id
    done = state.done
  }
}

/// S4: W1's toggle dispatched through the element scope of the toggled row,
/// `app.scope(state: \.todos, id:)`, with 1,000 element scopes each subscribed by one view model.
@MainActor
final class ElementScopeToggleRunner: Runner {
  let name = "store"
  let app = Store<AppState, Void>(initialState: AppState(todoCount: todoCount))
  var rows: [Store<Todo, Void>] = []
  let sink = Sink()
  var tokens: [Subscription] = []
  var next = 0
  var failures: [String] = []

  init() {
    rows = (0..<todoCount).map { app.scope(state: \.todos, id: $0) }
    for row in rows {
      tokens.append(
        row.subscribe(TodoDoneModel.self) { [sink] model in
          sink.receive(model.map { Todo(id: $0.id, title: "", done: $0.done) })
        })
    }
    if sink.count != todoCount {
      failures.append("expected \(todoCount) first deliveries, counted \(sink.count)")
    }
    sink.reset()
  }

  func perform(_ operations: Int) {
    var index = next
    for _ in 0..<operations {
      rows[index].dispatch(ToggleDone())
      index += 1
      if index == todoCount { index = 0 }
    }
    next = index
  }

  func verify(operations: Int) -> [String] {
    let expectation = ToggleExpectation(todoCount: todoCount, operations: operations)
    var failures = self.failures
    failures += expectation.check(doneFlags: app.state.todos.map(\.done))
    failures += expectation.check(sink, subscribers: todoCount)
    return failures
  }
}

/// S5: W1 dispatched at the root, with a hundred feature scopes mounted, each subscribed by one
/// view model; `scopes: 0` is its floor, W1 on the same state with no scope.
@MainActor
final class MountedScopesRunner: Runner {
  static let floorLabel = "W1, no scopes"

  let name: String
  let app = Store<MountedState, Void>(initialState: MountedState(todoCount: todoCount))
  let scopes: Int
  let sink = Sink()
  var tokens: [Subscription] = []
  var next = 0
  var failures: [String] = []

  init(scopes: Int) {
    self.scopes = scopes
    name = scopes == 0 ? Self.floorLabel : "store"
    for path in MountedState.featurePaths.prefix(scopes) {
      tokens.append(
        app.scope(state: path).subscribe(FeatureTitle.self) { [sink] _ in sink.count += 1 })
    }
    if sink.count != scopes {
      failures.append("expected \(scopes) first deliveries, counted \(sink.count)")
    }
    sink.reset()
  }

  func perform(_ operations: Int) {
    var index = next
    for _ in 0..<operations {
      app.dispatch(ToggleMountedTodo(id: index))
      index += 1
      if index == todoCount { index = 0 }
    }
    next = index
  }

  func verify(operations: Int) -> [String] {
    let expectation = ToggleExpectation(todoCount: todoCount, operations: operations)
    var failures = self.failures
    failures += expectation.check(doneFlags: app.state.app.todos.map(\.done))
    if sink.count != 0 {
      failures.append("the features' slices never change, yet \(sink.count) views were told")
    }
    return failures
  }
}

/// S5's comparison floor: the one comparison S5's store must make per root update, alone, with
/// no store: the hundred features' bytes against a copy of them, one `memcmp`, as the scope
/// mirror makes it.
///
/// It says what the rule ("compare the slice once per update and scope") costs on the
/// processor the run is on, so that S5's figure can be read as W1, this comparison, and what
/// the store adds to both. Each operation first writes one feature's count in both copies, so
/// the compiler cannot hoist the comparison out of the loop; the bytes stay equal.
@MainActor
final class SliceComparisonFloor: Runner {
  static let label = "comparison floor"

  let name = SliceComparisonFloor.label
  var features = MountedFeatures()
  var mirror = MountedFeatures()
  var differences = 0
  var compared = 0

  func perform(_ operations: Int) {
    // Locals, so that the loop pays no run-time exclusivity check on the class's fields: the
    // store's mirror pays none either.
    var features = self.features
    var mirror = self.mirror
    var differences = 0
    for operation in 0..<operations {
      features.f00.visits = operation
      mirror.f00.visits = operation
      differences += Self.compare(&features, &mirror)
    }
    self.features = features
    self.mirror = mirror
    self.differences += differences
    compared += operations
  }

  /// One byte comparison of the two values, out of line as the mirror's is; nonisolated, so
  /// that its closures make no run-time check of the executor.
  @inline(never)
  nonisolated static func compare(
    _ features: inout MountedFeatures, _ mirror: inout MountedFeatures
  ) -> Int {
    withUnsafeBytes(of: &features) { current in
      withUnsafeBytes(of: &mirror) { kept in
        guard let current = current.baseAddress, let kept = kept.baseAddress else { return 0 }
        return memcmp(current, kept, MemoryLayout<MountedFeatures>.size) == 0 ? 0 : 1
      }
    }
  }

  func verify(operations: Int) -> [String] {
    var failures: [String] = []
    if MemoryLayout<MountedFeatures>.size != 100 * MemoryLayout<Feature>.stride {
      failures.append(
        "the features are \(MemoryLayout<MountedFeatures>.size) bytes, not 100 slices")
    }
    if differences != 0 { failures.append("equal bytes compared unequal \(differences) times") }
    if compared < operations { failures.append("compared \(compared) times of \(operations)") }
    return failures
  }
}
