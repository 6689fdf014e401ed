import Testing

@testable import StateStore

struct BufferState: State {
  var numbers: [Int] = {
    var numbers: [Int] = []
    numbers.reserveCapacity(1024)
    return numbers
  }()
}

struct AppendNumber: StateUpdater {
  func updateState(_ state: inout BufferState) { state.numbers.append(state.numbers.count) }
}

@MainActor
@Suite("No hidden copies: a dispatch mutates in place unless a listener needs the old state")
struct InPlaceMutationTests {
  private func bufferAddress(_ store: Store<BufferState, Void>) -> UInt {
    let numbers = store._rootEngine._currentState.numbers
    return numbers.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
  }

  @Test("without listeners, the state's storage is mutated in place")
  func mutatesInPlace() {
    let store = Store<BufferState, Void>()
    store.dispatch(AppendNumber())
    let before = bufferAddress(store)
    for _ in 0..<100 { store.dispatch(AppendNumber()) }
    #expect(bufferAddress(store) == before)
  }

  @Test("subscribers and update observers do not force a copy")
  func subscribersDoNotCopy() {
    let store = Store<BufferState, Void>()
    var counts: [Int] = []
    let token = store.subscribe(to: \.numbers.count) { counts.append($0) }
    let observer = store.observeUpdates { _ in }
    store.dispatch(AppendNumber())
    let before = bufferAddress(store)
    for _ in 0..<10 { store.dispatch(AppendNumber()) }
    #expect(bufferAddress(store) == before)
    #expect(counts == Array(0...11))
    _ = (token, observer)
  }

  @Test("a listener keeps the old state, so the updater copies")
  func listenerKeepsOldState() {
    let store = Store<BufferState, Void>()
    var oldCounts: [Int] = []
    let token = store.addListener { old, _ in oldCounts.append(old.numbers.count) }
    store.dispatch(AppendNumber())
    let before = bufferAddress(store)
    store.dispatch(AppendNumber())
    #expect(bufferAddress(store) != before)
    #expect(oldCounts == [0, 1])
    token.cancel()
    let afterCancel = bufferAddress(store)
    store.dispatch(AppendNumber())
    #expect(bufferAddress(store) == afterCancel, "in place again once no listener remains")
  }
}
