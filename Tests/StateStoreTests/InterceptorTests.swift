import Testing

@testable import StateStore

@MainActor
@Suite("Interceptors: see, pass on, drop, replace and add dispatches, in order")
struct InterceptorTests {
  @Test("an interceptor sees each dispatchable with the state before and after it")
  func seesBeforeAndAfter() {
    var seen: [(String, Int, Int)] = []
    let watcher = StoreInterceptor<CounterState> { dispatchable, context, next in
      let before = context.state.value
      next(dispatchable)
      seen.append((String(describing: type(of: dispatchable)), before, context.state.value))
    }
    let store = Store<CounterState, Void>(interceptors: [watcher])
    store.dispatch(Increment(by: 3))
    store.dispatch(SetLabel(label: "x"))
    #expect(seen.map(\.0) == ["Increment", "SetLabel"])
    #expect(seen.map(\.1) == [0, 3])
    #expect(seen.map(\.2) == [3, 3])
  }

  @Test("interceptors can drop and replace dispatchables")
  func dropAndReplace() {
    let dropLabels = StoreInterceptor<CounterState> { dispatchable, _, next in
      if dispatchable is SetLabel { return }
      next(dispatchable)
    }
    let doubleIncrements = StoreInterceptor<CounterState> { dispatchable, _, next in
      if let increment = dispatchable as? Increment {
        next(Increment(by: increment.by * 2))
      } else {
        next(dispatchable)
      }
    }
    let store = Store<CounterState, Void>(interceptors: [dropLabels, doubleIncrements])
    store.dispatch(SetLabel(label: "dropped"))
    store.dispatch(Increment(by: 5))
    #expect(store.state == CounterState(value: 10, label: ""))
  }

  @Test("interceptors run in the order given")
  func runInOrder() {
    var order: [String] = []
    func named(_ name: String) -> StoreInterceptor<CounterState> {
      StoreInterceptor { dispatchable, _, next in
        order.append("\(name) in")
        next(dispatchable)
        order.append("\(name) out")
      }
    }
    let store = Store<CounterState, Void>(interceptors: [named("a"), named("b"), named("c")])
    store.dispatch(Increment())
    #expect(order == ["a in", "b in", "c in", "c out", "b out", "a out"])
  }

  @Test("a dispatch from an interceptor is queued after the current one and intercepted too")
  func interceptorDispatchIsQueued() {
    var seen: [Int] = []
    let echo = StoreInterceptor<CounterState> { dispatchable, context, next in
      if let append = dispatchable as? Append, append.number < 3 {
        context.dispatch(Append(number: append.number + 10))
        #expect(!context.state.log.contains(append.number + 10), "queued, not applied yet")
      }
      next(dispatchable)
      if let append = dispatchable as? Append { seen.append(append.number) }
    }
    let store = Store<CounterState, Void>(interceptors: [echo])
    var listened: [[Int]] = []
    let token = store.addListener { _, new in listened.append(new.log) }
    store.dispatch(Append(number: 1))
    store.dispatch(Append(number: 2))
    #expect(store.state.log == [1, 11, 2, 12])
    #expect(seen == [1, 11, 2, 12])
    #expect(listened == [[1], [1, 11], [1, 11, 2], [1, 11, 2, 12]])
    _ = token
  }

  @Test("onStart hooks run in order when the store is created and may dispatch")
  func onStart() {
    var started: [String] = []
    let first = StoreInterceptor<CounterState>(onStart: { context in
      started.append("first")
      context.dispatch(SetLabel(label: "started"))
    }) { dispatchable, _, next in next(dispatchable) }
    let second = StoreInterceptor<CounterState>(onStart: { _ in started.append("second") }) {
      dispatchable, _, next in next(dispatchable)
    }
    let store = Store<CounterState, Void>(interceptors: [first, second])
    #expect(started == ["first", "second"])
    #expect(store.state.label == "started")
  }

  @Test("a context kept beyond its store says the state is gone instead of making one up")
  func contextOutlivingTheStore() {
    var kept: InterceptorContext<CounterState>?
    let keep = StoreInterceptor<CounterState>(onStart: { kept = $0 }) { dispatchable, _, next in
      next(dispatchable)
    }
    var store: Store<CounterState, Void>? = Store(
      initialState: CounterState(value: 3), interceptors: [keep])
    store?.dispatch(Increment())
    #expect(kept?.stateIfStoreIsAlive == CounterState(value: 4))
    #expect(kept?.state == CounterState(value: 4))
    store = nil
    #expect(kept != nil)
    #expect(kept?.stateIfStoreIsAlive == nil)
  }

  @Test("reading a released store's state through a kept context stops the process, saying why")
  func stateOfReleasedStoreIsStopped() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        var kept: InterceptorContext<CounterState>?
        let keep = StoreInterceptor<CounterState>(onStart: { kept = $0 }) {
          dispatchable, _, next in next(dispatchable)
        }
        var store: Store<CounterState, Void>? = Store(interceptors: [keep])
        store = nil
        _ = (store, kept?.state)
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(
        message.contains("InterceptorContext<CounterState>.state after its store was released"))
      #expect(message.contains("read stateIfStoreIsAlive there"))
    }
  }

  @Test("a dispatchable nobody can run is reported to the error hook, not lost")
  func unhandledDispatchable() {
    let store = Store<CounterState, Void>()
    var reported: [String] = []
    store.onUnhandledError = { error, dispatchable in
      reported.append("\(type(of: dispatchable)): \(error)")
    }
    store.dispatch(any: Unrunnable())
    #expect(reported.count == 1)
    #expect(reported.first?.contains("Unrunnable") == true)
  }

  @Test("an untyped dispatch of an updater is applied like a typed one")
  func untypedUpdater() {
    let store = Store<CounterState, Void>()
    let items: [any Dispatchable] = [Increment(by: 2), SetLabel(label: "y")]
    for item in items { store.dispatch(any: item) }
    #expect(store.state == CounterState(value: 2, label: "y"))
  }

  @Test("intercept(_:then:) hands the final non-updater dispatchable to its caller")
  func interceptThen() {
    let replace = StoreInterceptor<CounterState> { dispatchable, _, next in
      next(dispatchable is Unrunnable ? Increment(by: 7) : dispatchable)
    }
    let store = Store<CounterState, Void>(interceptors: [replace])
    var performed: [String] = []
    store.intercept(Unrunnable()) { final in
      performed.append("\(type(of: final))")
      return true
    }
    #expect(performed.isEmpty, "replaced by an updater, which the store applies itself")
    #expect(store.state.value == 7)
    let plain = Store<CounterState, Void>()
    plain.intercept(Unrunnable()) { final in
      performed.append("\(type(of: final))")
      return true
    }
    #expect(performed == ["Unrunnable"])
  }
}
