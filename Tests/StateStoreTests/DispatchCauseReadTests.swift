import Testing

@testable import StateStore

/// What a store records as a dispatch's cause is `DispatchCause.current` at the dispatch: these
/// tests bind causes every way the API allows and compare the two.
@MainActor
@Suite("The store's read of the dispatch cause")
struct DispatchCauseReadTests {
  /// A store whose update observer records each dispatch's cause, beside what
  /// `DispatchCause.current` said at the dispatch.
  @MainActor
  final class Recorder {
    let store = Store<CounterState, Void>()
    var recorded: [String?] = []
    var token: Subscription?

    init() {
      token = store.observeUpdates { [unowned self] update in recorded.append(update.cause?.name) }
    }

    /// Dispatches one updater and returns what `DispatchCause.current` was.
    func dispatch() -> String? {
      store.dispatch(Increment())
      return DispatchCause.current?.name
    }
  }

  @Test("no cause bound: both reads give nil")
  func unbound() {
    let recorder = Recorder()
    #expect(recorder.dispatch() == nil)
    #expect(DispatchCause.current == nil)
    #expect(recorder.recorded == [nil])
  }

  @Test("nested bindings, nil inside a cause, and the cause back after it")
  func nested() {
    let recorder = Recorder()
    var expected: [String?] = []
    DispatchCause.$current.withValue(DispatchCause("outer")) {
      expected.append(recorder.dispatch())
      DispatchCause.$current.withValue(DispatchCause("inner")) {
        expected.append(recorder.dispatch())
        DispatchCause.$current.withValue(nil) {
          expected.append(recorder.dispatch())
          #expect(DispatchCause.current == nil)
        }
      }
      expected.append(recorder.dispatch())
    }
    expected.append(recorder.dispatch())
    #expect(expected == ["outer", "inner", nil, "outer", nil])
    #expect(recorder.recorded == expected)
  }

  @Test("a cause with a long name (a heap string) is copied out whole")
  func heapName() {
    let recorder = Recorder()
    let name = String(repeating: "a long cause name, ", count: 20)
    let seen = DispatchCause.$current.withValue(DispatchCause(name)) { recorder.dispatch() }
    #expect(seen == name)
    #expect(recorder.recorded == [name])
  }

  @Test("async bindings, child tasks, Task {} inherit the cause; Task.detached does not")
  func acrossTasks() async {
    let recorder = Recorder()
    var expected: [String?] = []
    await DispatchCause.$current.withValue(DispatchCause("async")) {
      await Task.yield()
      expected.append(recorder.dispatch())
      async let child: String? = { @MainActor in recorder.dispatch() }()
      expected.append(await child)
      let grouped = await withTaskGroup(of: String?.self) { group in
        group.addTask { @MainActor in recorder.dispatch() }
        return await group.next() ?? "missing"
      }
      expected.append(grouped)
      let unstructured = Task { @MainActor in recorder.dispatch() }
      expected.append(await unstructured.value)
      let detached = Task.detached { @MainActor in recorder.dispatch() }
      expected.append(await detached.value)
    }
    #expect(expected == ["async", "async", "async", "async", nil])
    #expect(recorder.recorded == expected)
  }

  @Test("a queued dispatch records the cause in effect when it was dispatched")
  func queued() {
    let recorder = Recorder()
    // Dispatched from inside an update observer, so queued behind the current update.
    var once = true
    let token = recorder.store.observeUpdates { [store = recorder.store] _ in
      guard once else { return }
      once = false
      DispatchCause.$current.withValue(DispatchCause("from an observer")) {
        store.dispatch(Increment())
      }
    }
    DispatchCause.$current.withValue(DispatchCause("first")) { _ = recorder.dispatch() }
    #expect(recorder.recorded == ["first", "from an observer"])
    _ = token
  }
}
