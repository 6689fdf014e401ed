import Testing

@testable import StateStore

/// Counts `init?(state:)` evaluations; main-actor isolated because the store evaluates there.
@MainActor var labelModelEvaluations = 0

struct LabelModel: ViewModelWithState {
  let label: String
  init?(state: CounterState) {
    MainActor.assumeIsolated { labelModelEvaluations += 1 }
    guard !state.label.isEmpty else { return nil }
    label = state.label
  }
}

struct ParityModel: ViewModelWithState {
  let isEven: Bool
  init?(state: CounterState) { isEven = state.value % 2 == 0 }
}

@MainActor
@Suite("Notification: listeners and view-model subscriptions")
struct NotificationTests {
  @Test("listeners receive exactly the state before and after each updater")
  func listenerGetsOldAndNew() {
    let store = Store<CounterState, Void>(initialState: CounterState(value: 5))
    var pairs: [(CounterState, CounterState)] = []
    let token = store.addListener { old, new in pairs.append((old, new)) }
    store.dispatch(Increment(by: 2))
    store.dispatch(SetLabel(label: "x"))
    #expect(pairs.count == 2)
    #expect(pairs[0].0 == CounterState(value: 5))
    #expect(pairs[0].1 == CounterState(value: 7))
    #expect(pairs[1].0 == CounterState(value: 7))
    #expect(pairs[1].1 == CounterState(value: 7, label: "x"))
    _ = token
  }

  @Test("a subscriber gets its view model at once, then only when it differs")
  func subscriberDeduplicates() {
    let store = Store<CounterState, Void>()
    var received: [Bool?] = []
    let token = store.subscribe(ParityModel.self) { received.append($0?.isEven) }
    #expect(received == [true])
    store.dispatch(Increment(by: 2))
    store.dispatch(SetLabel(label: "unrelated"))
    #expect(received == [true], "equal view models are not delivered again")
    store.dispatch(Increment())
    store.dispatch(Increment(by: 2))
    store.dispatch(Increment())
    #expect(received == [true, false, true])
    _ = token
  }

  @Test("a subscriber gets nil when init?(state:) fails")
  func failingInitDeliversNil() {
    let store = Store<CounterState, Void>()
    var received: [LabelModel?] = []
    let token = store.subscribe(LabelModel.self) { received.append($0) }
    store.dispatch(SetLabel(label: "a"))
    store.dispatch(SetLabel(label: ""))
    #expect(received.map { $0?.label } == [nil, "a", nil])
    _ = token
  }

  @Test("all subscribers of one view-model type share one evaluation per state change")
  func sharedEvaluation() {
    let store = Store<CounterState, Void>()
    labelModelEvaluations = 0
    var deliveries = 0
    let tokens = (0..<50).map { _ in
      store.subscribe(LabelModel.self) { _ in deliveries += 1 }
    }
    #expect(labelModelEvaluations == 1, "subscribing shares the evaluation of the current state")
    #expect(deliveries == 50)
    for index in 1...10 { store.dispatch(SetLabel(label: "\(index)")) }
    #expect(labelModelEvaluations == 11)
    #expect(deliveries == 50 + 50 * 10)
    _ = tokens
  }

  @Test("a key-path subscription hears only changes of that value")
  func keyPathSubscription() {
    let store = Store<CounterState, Void>()
    var labels: [String] = []
    let token = store.subscribe(to: \.label) { labels.append($0) }
    store.dispatch(Increment())
    store.dispatch(SetLabel(label: "a"))
    store.dispatch(SetLabel(label: "a"))
    store.dispatch(SetLabel(label: "b"))
    #expect(labels == ["", "a", "b"])
    _ = token
  }

  @Test("a subscriber added during a notification round gets the current value once")
  func subscribeMidRound() {
    let store = Store<CounterState, Void>()
    var late: [Int] = []
    var lateToken: Subscription?
    let listener = store.addListener { _, new in
      if new.value == 1 {
        lateToken = store.subscribe(ValueModel.self) { late.append($0?.value ?? -1) }
      }
    }
    store.dispatch(Increment())
    store.dispatch(Increment())
    #expect(late == [1, 2])
    _ = (listener, lateToken)
  }

  @Test("update observers see each applied updater, its cause and its sequence number")
  func updateObservers() async {
    let store = Store<CounterState, Void>()
    var seen: [(String, String?, UInt64)] = []
    let token = store.observeUpdates { update in
      seen.append(
        (String(describing: type(of: update.updater)), update.cause?.name, update.sequence))
    }
    store.dispatch(Increment())
    DispatchCause.$current.withValue(DispatchCause("user: rename")) {
      store.dispatch(SetLabel(label: "x"))
    }
    #expect(seen.map(\.0) == ["Increment", "SetLabel"])
    #expect(seen.map(\.1) == [nil, "user: rename"])
    #expect(seen.map(\.2) == [1, 2])
    _ = token
  }
}
