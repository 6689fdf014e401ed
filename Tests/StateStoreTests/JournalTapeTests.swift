import Testing

@testable import StateStore

/// A journaled root appends most updaters to its journal's tape itself and calls the journal's
/// hook for the rest (`_JournalTape`): these pin when it may, what it writes, and that the
/// tape's unchecked accesses hold against the application's deinitializers.
@MainActor
@Suite("The store's own journal appends")
struct JournalTapeTests {
  /// A root with a tape and a hook that records what it is told.
  @MainActor
  final class Journaled {
    let signal = _JournalSignal()
    let tape: _JournalTape<CounterState>
    let store: Store<CounterState, Void>
    var hooked: [(updater: any StateUpdater<CounterState>, cause: String?)] = []

    init(lastSequence: Int = 0) {
      let tape = _JournalTape<CounterState>(lastSequence: lastSequence, snapshotWanted: signal)
      self.tape = tape
      var hook: ((any StateUpdater<CounterState>, DispatchCause?) -> Void)?
      store = Store(
        initialState: CounterState(), dependencies: (), interceptors: [],
        journal: { updater, cause in hook?(updater, cause) }, tape: tape)
      hook = { [unowned self] updater, cause in hooked.append((updater, cause?.name)) }
    }

    /// Opens the store's own appends as the journal does once a batch's hand-off is scheduled.
    func open() {
      tape._isJournaling = true
      tape._handOffIsScheduled = true
    }

    /// The numbers of the updaters on the tape, as `Append` updaters.
    var appended: [Int] { tape._batch.compactMap { ($0._updater as? Append)?.number } }
  }

  @Test("closed until the journal opens it, then the store appends its updaters itself, numbered")
  func appendsOnceOpened() {
    let journaled = Journaled(lastSequence: 40)
    journaled.store.dispatch(Append(number: 1))
    #expect(journaled.hooked.count == 1, "journaling not started: the hook decides")
    #expect(journaled.tape._batch.isEmpty)
    journaled.open()
    #expect(journaled.tape._inlineRoom == _JournalTape<CounterState>._batchLimit - 1)
    for number in 2...6 { journaled.store.dispatch(Append(number: number)) }
    #expect(journaled.hooked.count == 1, "the hook saw none of them")
    #expect(journaled.appended == [2, 3, 4, 5, 6])
    #expect(journaled.tape._batch.map(\._number) == [1, 2, 3, 4, 5])
    #expect(journaled.tape._batch.allSatisfy { $0._extras == nil && $0._cause == nil })
    #expect(journaled.tape._lastSequence == 45)
    #expect(journaled.tape._journaledCount == 5)
    #expect(journaled.tape._flushTarget == 5)
    #expect(journaled.store.state.log == [1, 2, 3, 4, 5, 6])
  }

  @Test("each dispatch's cause is recorded with its entry")
  func recordsCauses() {
    let journaled = Journaled()
    journaled.open()
    DispatchCause.$current.withValue(DispatchCause("a side effect with a long, heap-held name")) {
      journaled.store.dispatch(Append(number: 1))
    }
    journaled.store.dispatch(Append(number: 2))
    #expect(
      journaled.tape._batch.map(\._cause?.name) == [
        "a side effect with a long, heap-held name", nil,
      ])
  }

  @Test(
    "everything but numbering and batching goes to the hook: a snapshot wanted, an undo, another process's updater"
  )
  func specialEntriesGoToTheHook() {
    let journaled = Journaled()
    journaled.open()
    journaled.signal._raised.store(true, ordering: .relaxed)
    journaled.store.dispatch(Append(number: 1))
    journaled.signal._raised.store(false, ordering: .relaxed)
    journaled.tape._undoing = 7
    #expect(journaled.tape._inlineRoom == 0)
    journaled.store.dispatch(Append(number: 2))
    journaled.tape._undoing = nil
    journaled.tape._expectsOtherProcess = true
    journaled.store.dispatch(Append(number: 3))
    journaled.tape._expectsOtherProcess = false
    journaled.tape._appliesOtherProcess = true
    journaled.store.dispatch(Append(number: 4))
    journaled.tape._appliesOtherProcess = false
    journaled.tape._isJournaling = false
    journaled.store.dispatch(Append(number: 5))
    #expect(journaled.hooked.compactMap { ($0.updater as? Append)?.number } == [1, 2, 3, 4, 5])
    #expect(journaled.tape._batch.isEmpty)
    journaled.tape._isJournaling = true
    journaled.store.dispatch(Append(number: 6))
    #expect(journaled.appended == [6])
  }

  @Test("the store stops one short of a full batch and short of the numbering's end")
  func stopsAtTheLimits() {
    let limit = _JournalTape<CounterState>._batchLimit
    let journaled = Journaled()
    journaled.open()
    for number in 1...limit { journaled.store.dispatch(Append(number: number)) }
    #expect(journaled.tape._batch.count == limit - 1)
    #expect(
      journaled.hooked.map { ($0.updater as? Append)?.number } == [limit], "the hook fills it")

    let nearTheEnd = Journaled(lastSequence: Int.max - 4)
    nearTheEnd.open()
    #expect(nearTheEnd.tape._inlineRoom == 2)
    for number in 1...4 { nearTheEnd.store.dispatch(Append(number: number)) }
    #expect(nearTheEnd.appended == [1, 2])
    #expect(nearTheEnd.tape._lastSequence == Int.max - 2)
    #expect(nearTheEnd.hooked.count == 2, "the hook numbers the last entries, or stops")

    let hostileSnapshot = Journaled(lastSequence: -5)
    hostileSnapshot.open()
    #expect(hostileSnapshot.tape._inlineRoom == 0, "a numbering it cannot trust goes to the hook")
  }

  @Test("a store with other observers tells the hook every updater, after the change")
  func observedStoresUseTheHook() {
    let journaled = Journaled()
    journaled.open()
    var seen: [[Int]] = []
    let token = journaled.store.addListener { _, new in seen.append(new.log) }
    journaled.store.dispatch(Append(number: 1))
    journaled.store.dispatch(Append(number: 2))
    #expect(journaled.hooked.count == 2)
    #expect(journaled.tape._batch.isEmpty)
    #expect(seen == [[1], [1, 2]])
    token.cancel()
    // The next dispatch sweeps the cancelled listener (through the hook); after it, alone
    // again, the store appends itself.
    journaled.store.dispatch(Append(number: 3))
    journaled.store.dispatch(Append(number: 4))
    #expect(journaled.hooked.count == 3)
    #expect(journaled.appended == [4])
    #expect(seen == [[1], [1, 2]])
  }

  @Test("an updater dispatched from inside another is queued, then appended in its turn")
  func queuedUpdatersAreAppendedInOrder() {
    let journaled = Journaled()
    journaled.open()
    let store = journaled.store
    journaled.store.dispatch(
      DispatchingUpdater(number: 1) { store.dispatch(Append(number: 2)) })
    journaled.store.dispatch(Append(number: 3))
    #expect(journaled.store.state.log == [1, 2, 3])
    #expect(journaled.tape._batch.map(\._number) == [1, 2, 3])
    #expect(journaled.tape._batch.compactMap { ($0._updater as? Append)?.number } == [2, 3])
  }

  @Test("an updater whose release dispatches, dropped with its batch, is appended after it")
  func releasedUpdatersDispatchOutsideTheTape() {
    let journaled = Journaled()
    journaled.open()
    let store = journaled.store
    journaled.store.dispatch(
      Carrying(payload: OnRelease { store.dispatch(Append(number: 99)) }))
    #expect(journaled.tape._batch.count == 1)
    // The journal takes the batch as it does (a swap) and drops it: the payload's deinit
    // dispatches, with the tape's accesses over.
    var taken: [_JournalEntry<CounterState>] = []
    swap(&taken, &journaled.tape._batch)
    journaled.tape._refresh()
    taken = []
    #expect(journaled.store.state.log == [99])
    #expect(journaled.appended == [99])
    #expect(journaled.tape._batch.map(\._number) == [2])
  }

  @Test("a copy of the batch held while the store appends is left as it was")
  func heldCopiesAreUntouched() {
    let journaled = Journaled()
    journaled.open()
    journaled.store.dispatch(Append(number: 1))
    let held = journaled.tape._batch
    journaled.store.dispatch(Append(number: 2))
    #expect(held.map(\._number) == [1])
    #expect(journaled.appended == [1, 2])
  }
  @Test(
    "an observer registered by the updater's own code (a deinitializer it runs) does not lose the entry"
  )
  func observerRegisteredInsideTheUpdater() {
    let signal = _JournalSignal()
    let tape = _JournalTape<HoldingState>(lastSequence: 0, snapshotWanted: signal)
    let counts = Counts()
    let store = Store<HoldingState, Void>(
      initialState: HoldingState(), dependencies: (), interceptors: [],
      journal: { _, _ in counts.hooked += 1 }, tape: tape)
    tape._isJournaling = true
    tape._handOffIsScheduled = true
    store.dispatch(Hold(object: OnRelease {}))
    // Replacing the held object releases it inside the updater: its deinitializer registers a
    // listener, so the store has other observers when the updater returns.
    store.dispatch(
      Hold(
        object: nil,
        onReleaseOfOld: {
          counts.tokens.append(store.addListener { _, _ in counts.heard += 1 })
        }))
    #expect(tape._batch.count == 2, "both journaled, whatever the updater registered")
    #expect(counts.hooked == 0)
    store.dispatch(Hold(object: nil))
    #expect(counts.heard == 1, "the listener hears the next update")
    #expect(counts.hooked == 1, "which the journal's hook is told: the journal is not alone now")
    counts.tokens.removeAll()
  }

  /// What the hostile test counts.
  @MainActor
  final class Counts {
    var hooked = 0
    var heard = 0
    var tokens: [Subscription] = []
  }
}

/// A state holding an object whose release runs code.
private struct HoldingState: State {
  var held: OnRelease?
}

/// An object that runs `body` when released, on the main actor.
private final class OnRelease: Sendable {
  let body: @MainActor @Sendable () -> Void

  init(_ body: @escaping @MainActor @Sendable () -> Void) {
    self.body = body
  }

  deinit {
    MainActor.assumeIsolated { body() }
  }
}

/// Replaces the held object; with `onReleaseOfOld`, first gives the old one that code to run.
private struct Hold: StateUpdater {
  let object: OnRelease?
  var onReleaseOfOld: (@MainActor @Sendable () -> Void)?

  func updateState(_ state: inout HoldingState) {
    if let onReleaseOfOld {
      state.held = OnRelease(onReleaseOfOld)
    }
    state.held = object
  }
}

/// An updater that dispatches from inside itself (queued by the store).
private struct DispatchingUpdater: StateUpdater {
  let number: Int
  let body: @MainActor @Sendable () -> Void

  func updateState(_ state: inout CounterState) {
    state.log.append(number)
    MainActor.assumeIsolated { body() }
  }
}

/// An updater holding an object that runs code when released.
private struct Carrying: StateUpdater {
  let payload: OnRelease
  func updateState(_ state: inout CounterState) {}
}
