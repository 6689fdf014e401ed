import Testing

@testable import StateStore

@MainActor
@Suite("Ordering: updaters apply in dispatch order, re-entrant dispatches are queued")
struct OrderingTests {
  @Test("updaters apply strictly in dispatch order")
  func appliesInOrder() {
    let store = Store<CounterState, Void>()
    for number in 0..<100 { store.dispatch(Append(number: number)) }
    #expect(store.state.log == Array(0..<100))
  }

  @Test("a dispatch from a listener waits until every listener has seen the current change")
  func listenerDispatchIsQueued() {
    let store = Store<CounterState, Void>()
    var seen: [String] = []
    var depth = 0
    var maxDepth = 0
    let first = store.addListener { old, new in
      depth += 1
      maxDepth = max(maxDepth, depth)
      seen.append("first \(old.value)→\(new.value)")
      if new.value == 1 { store.dispatch(Increment()) }
      #expect(store.state.value == new.value, "the queued dispatch must not apply mid-round")
      depth -= 1
    }
    let second = store.addListener { old, new in
      seen.append("second \(old.value)→\(new.value)")
    }
    store.dispatch(Increment())
    #expect(
      seen == ["first 0→1", "second 0→1", "first 1→2", "second 1→2"])
    #expect(maxDepth == 1, "notifications are never nested")
    #expect(store.state.value == 2)
    _ = (first, second)
  }

  @Test("a dispatch from a subscriber is queued after every subscriber has seen the change")
  func subscriberDispatchIsQueued() {
    let store = Store<CounterState, Void>()
    var events: [String] = []
    let a = store.subscribe(ValueModel.self) { model in
      events.append("a \(model?.value ?? -1)")
      if model?.value == 1 { store.dispatch(Increment(by: 10)) }
    }
    let b = store.subscribe(ValueModel.self) { model in
      events.append("b \(model?.value ?? -1)")
    }
    store.dispatch(Increment())
    #expect(events == ["a 0", "b 0", "a 1", "b 1", "a 11", "b 11"])
    _ = (a, b)
  }

  @Test("chains of re-entrant dispatches are neither lost nor reordered")
  func reentrantChain() {
    let store = Store<CounterState, Void>()
    var order: [Int] = []
    let token = store.addListener { _, new in
      order.append(new.log.last ?? -1)
      if let last = new.log.last, last < 5 {
        store.dispatch(Append(number: last + 1))
        store.dispatch(Append(number: last + 100))
      }
    }
    store.dispatch(Append(number: 0))
    #expect(store.state.log == [0, 1, 100, 2, 101, 3, 102, 4, 103, 5, 104])
    #expect(order == store.state.log)
    _ = token
  }

  @Test("every listener sees every change, in the same order")
  func listenersAgree() {
    let store = Store<CounterState, Void>()
    var histories: [[Int]] = [[], [], []]
    var tokens: [Subscription] = []
    for index in 0..<3 {
      tokens.append(
        store.addListener { _, new in
          histories[index].append(new.value)
          if index == 1, new.value % 2 == 1 { store.dispatch(Increment()) }
        })
    }
    for _ in 0..<4 { store.dispatch(Increment()) }
    #expect(histories[0] == Array(1...8))
    #expect(histories[1] == histories[0])
    #expect(histories[2] == histories[0])
  }

  @Test("dispatches from many concurrent tasks are all applied, one at a time")
  func concurrentDispatch() async {
    let store = Store<CounterState, Void>()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<20 {
        group.addTask {
          for _ in 0..<50 { await store.dispatch(Increment()) }
        }
      }
    }
    #expect(store.state.value == 1000)
  }
}

struct ValueModel: ViewModelWithState {
  let value: Int
  init?(state: CounterState) { value = state.value }
}
