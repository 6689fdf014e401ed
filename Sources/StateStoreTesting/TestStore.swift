import SideEffects
import Synchronization
import Testing

/// A store for tests that asserts every state change, in the spirit of TCA's `TestStore`.
///
/// Send updaters and effects, state how each one changes the state, and receive, in order,
/// every updater the effects dispatch:
///
/// ```swift
/// @MainActor @Test func loading() async {
///   let store = TestStore(initialState: AppState(), dependencies: .fake)
///   await store.send(SetFilter(.done)) { $0.filter = .done }
///   await store.send(LoadTodos())
///   await store.receive(SetLoading.self) { $0.isLoading = true }
///   await store.receive(SetTodos.self) { $0.todos = [milk]; $0.isLoading = false }
/// }
/// ```
///
/// Rules, in the default exhaustive mode (``Exhaustivity/on``):
/// - A state change must match the closure exactly; the failure shows each differing field as
///   `path: expected → actual`.
/// - Every updater the effects dispatch must be received before the next send, and by the end.
/// - No effect may still run when the store is released; `await store.finish()` waits for them.
///
/// A test store never hangs silently:
/// - It knows the ``TestClock`` its effects sleep on (found in the dependencies, or set with
///   ``clock``). When every running effect is asleep on it, `receive` and `finish` fail at once,
///   naming each effect, the line that sent it and its deadline: only advancing the clock could
///   make progress.
/// - The test drives that clock, so when the test itself awaits an effect (the handle's
///   `value` or `finish()`, or `store.store.dispatch(effect)`) while every running effect waits
///   for the clock, the await fails at once the same way, and the effects are cancelled to end
///   it. A sleep of the test on the clock fails at once too (see ``TestClock``).
/// - Any other wait (an effect stuck on a fake that never answers) fails after ``timeout`` of
///   real time, naming the test and what it waited for.
///
/// Failures are recorded with Swift Testing's `Issue.record` at the caller's line.
@MainActor
public final class TestStore<S: State, Dependencies: Sendable> {
  /// How strict the store is.
  public enum Exhaustivity: Sendable, Hashable {
    /// Every change, received updater and running effect must be accounted for.
    case on
    /// Only what the test asserts is checked: a closure checks the fields it sets, `receive`
    /// skips updaters of other types, and leftovers at the end are ignored.
    case off
  }

  /// An updater an effect dispatched, with the states around it.
  struct Received {
    let updater: any StateUpdater<S>
    let old: S
    let new: S
  }

  /// The store under test; use it for anything the test store does not wrap.
  ///
  /// It is a plain `Store`: subscribe to it, read `store.store.dependencies`, or give it to
  /// code under test that takes a store (a screen, a recorder). What is dispatched to it
  /// directly is observed too: an updater it applies must be received, and an effect it
  /// starts is awaited by `finish()`.
  ///
  /// ```swift
  /// let recorder = try ActionRecorder(store: testStore.store, registry: .app, destination: .memory)
  /// ```
  public let store: Store<S, Dependencies>
  /// The root of ``store`` when it is a scope, kept alive as long as the test store.
  private let root: AnyObject?

  /// The clock the store's effects sleep on, so that a wait on it fails at once instead of
  /// hanging, and so that ``TestClock/advance(by:)`` waits for effects about to sleep.
  ///
  /// Found in the dependencies when the store is created (a `TestClock` stored in them, up to
  /// three levels deep, even as `any Clock<Duration>`); set it when the clock is kept elsewhere.
  public var clock: TestClock? {
    didSet { attachClock() }
  }

  /// How long `receive`, `finish` and the ``clock``'s `advance` wait in real time with nothing
  /// happening (no updater arriving, no effect starting, getting its turn, finishing or falling
  /// asleep) before they fail, naming the test and what they waited for.
  ///
  /// After five seconds without progress (or a quarter of a shorter timeout), the wait records a
  /// warning that lists what is still running.
  ///
  /// A backstop against hangs, not a pace: a passing test never waits for it, and a wait on the
  /// clock fails at once without it. Four minutes by default: a whole suite run under
  /// ThreadSanitizer on two cores kept the main actor busy for more than one minute while an
  /// effect's dispatch waited its turn, and four minutes still fail before a five-minute
  /// `.timeLimit` cuts the test off without saying what it waited for. A test that expects a
  /// wait never to end sets it small.
  public var timeout: Duration = .seconds(240)

  /// How strict the store is; ``Exhaustivity/on`` unless set.
  public var exhaustivity: Exhaustivity = .on {
    didSet { updateLedger() }
  }

  var received: [Received] = []
  private var lastState: S
  private var isSending = false
  /// The state right after the updater being sent, before anything queued behind it.
  private var sentState: S?
  private var sendingType: Any.Type?
  /// Effects started by `send` and not yet finished, with where they were sent.
  var runningSends: [UInt64: RunningSend] = [:]
  var nextSendID: UInt64 = 0
  /// The effects' progress: what `receive`, `finish` and the clock's `advance` wait on.
  let progress: EffectProgress<S, Dependencies>
  private var tokens: [Subscription] = []
  private let ledger = Ledger()
  let clockLink = ClockLink()
  /// The effect runs the test's own task awaits now (see ``checkAwaitedEffects()``).
  let awaitedRuns = AwaitedRuns()
  /// The recorded effects fed to this store's effects (``replayEffects(_:)``), kept alive here.
  var replayedEffects: RecordedEffects?
  /// Whether the values the replay left unasked for have been reported.
  var reportedUnreplayedValues = false
  /// Whether the test's current await of an effect has been reported as one that cannot end.
  var reportedAwaitStall = false
  let creation: SourceLocation

  /// Creates a test store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - dependencies: What effects receive; pass fakes and a ``TestClock``, which becomes the
  ///     store's ``clock``.
  ///   - interceptors: Interceptors of the underlying store, in order, as `Store` takes them: a
  ///     recorder, an observer. Updaters they dispatch are received like an effect's.
  ///   - sourceLocation: Where the store is created: leftover effects and updaters fail the
  ///     test there. A helper that builds test stores takes
  ///     `sourceLocation: SourceLocation = #_sourceLocation` and forwards it, so that failures
  ///     point at the test, not at the helper.
  public convenience init(
    initialState: S, dependencies: Dependencies, interceptors: [StoreInterceptor<S>] = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.init(
      wrapping: Store(
        initialState: initialState, dependencies: dependencies, interceptors: interceptors),
      at: sourceLocation)
  }

  /// Creates a test store over an existing store: typically a scope of the app's store, so that
  /// a feature's exhaustive test runs unchanged inside the whole app.
  ///
  /// ```swift
  /// let app = Store<AppState, AppDependencies>(dependencies: .fake)
  /// let store = TestStore(wrapping: app.scope(state: \.profile, dependencies: \.profile))
  /// await store.send(Rename(name: "Ada")) { $0.name = "Ada" }   // app.state.profile.name == "Ada"
  /// ```
  ///
  /// The test store asserts what goes through `store`: the updaters dispatched through it
  /// (for a scope, those of the feature, unwrapped) and the effects started on it. Its state is
  /// the store's (the slice, for a scope). A change that the rest of the app makes to the slice
  /// in between shows as an unexpected change in the next assertion, as exhaustive testing
  /// wants. The test store keeps the scope's root alive while it lives, so the app may be a
  /// temporary, and it takes over the store's `onUnhandledError`.
  ///
  /// - Parameters:
  ///   - store: The store to test: a root store, or a scope of one.
  ///   - sourceLocation: Where the store is created: leftover effects and updaters fail the
  ///     test there.
  public convenience init(
    wrapping store: Store<S, Dependencies>, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.init(
      wrapping: store,
      at: sourceLocation)
  }

  /// The one initialiser every other calls: a test store of `store`, created at `creation`.
  init(wrapping store: Store<S, Dependencies>, at creation: SourceLocation) {
    self.store = store
    self.root = store.rootStore
    self.lastState = store.state
    self.creation = creation
    self.progress = EffectProgress(store: store, clock: nil)
    store.onUnhandledError = { error, dispatchable in
      Issue.record(
        "\(type(of: dispatchable)) threw an error that nobody awaited: \(error)",
        sourceLocation: creation)
    }
    tokens.append(store.observeUpdates { [weak self] update in self?.observe(update) })
    progress.onChange = { [weak self] in
      self?.updateLedger()
      self?.checkAwaitedEffects()
    }
    clock = Self.findClock(in: store.dependencies, depth: 3)
    attachClock()
    tokens.append(watchAwaits())
  }

  /// The current state of the store.
  ///
  /// - Precondition: For a scope, its slice still exists (see `Store.state`).
  public var state: S { store.state }

  deinit {
    clockLink.detach()
    let leftovers = ledger.snapshot
    let store = self.store
    Task { @MainActor in store.cancelAllEffects() }
    guard leftovers.isExhaustive else { return }
    if !leftovers.unreceived.isEmpty {
      let names = leftovers.unreceived.joined(separator: ", ")
      Issue.record(
        """
        The test ended with \(leftovers.unreceived.count) received updater(s) not asserted: \
        \(names). Assert each with `await store.receive(...)`, or skip them with \
        `store.skipReceivedUpdaters()`.
        """,
        sourceLocation: creation)
    }
    if leftovers.runningEffects > 0, !leftovers.runningSends.isEmpty {
      for send in leftovers.runningSends {
        Issue.record(
          """
          The test ended with \(leftovers.runningEffects) effect(s) still running; \(send.name) \
          was sent here. Await them with `await store.finish()`, or cancel them with \
          `await store.cancelInFlightEffects()`.
          """,
          sourceLocation: send.location)
      }
    } else if leftovers.runningEffects > 0 {
      Issue.record(
        """
        The test ended with \(leftovers.runningEffects) effect(s) still running. Await them \
        with `await store.finish()`, or cancel them with `await store.cancelInFlightEffects()`.
        """,
        sourceLocation: creation)
    }
  }

  // MARK: - Sending updaters

  /// Dispatches `updater` and asserts how it changes the state.
  ///
  /// `updateStateToExpectedResult` gets the state before the updater and must turn it into the
  /// state after it. Without a closure, the state must not change (in exhaustive mode).
  public func send<U: StateUpdater>(
    _ updater: U,
    assert updateStateToExpectedResult: ((inout S) throws -> Void)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async where U.StateType == S {
    let label = "send(\(type(of: updater)))"
    clock?.noteDriver()
    checkNothingPending(before: label, at: sourceLocation)
    // A scope whose element the test removed (or whose root it released) has no state: a
    // failed test, not a stopped test process.
    guard let before = store.stateIfAvailable else {
      Issue.record(
        """
        \(label) on a scope whose slice is gone: its element was removed or its root \
        released. The updater was not dispatched.
        """,
        sourceLocation: sourceLocation)
      return
    }
    isSending = true
    sendingType = U.self
    sentState = nil
    store.dispatch(updater)
    isSending = false
    // Updaters that interceptors queued behind this one were received, not folded in here.
    let after = sentState ?? store.stateIfAvailable ?? before
    sentState = nil
    updateLedger()
    assertChange(
      label, from: before, to: after, expected: updateStateToExpectedResult, at: sourceLocation)
  }

  /// Forgets every received updater not yet asserted.
  public func skipReceivedUpdaters() {
    clock?.noteDriver()
    received.removeAll()
    updateLedger()
  }

  /// Cancels every effect still running, so the end of the test does not fail because of them,
  /// and waits for them to end (an effect that ignores its cancellation fails the wait after
  /// ``timeout``, at the caller's line).
  public func cancelInFlightEffects(
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    clock?.noteDriver()
    store.cancelAllEffects()
    await finish(sourceLocation: sourceLocation)
  }

  // MARK: - Internals

  private func observe(_ update: AppliedUpdate<S>) {
    // Only the scope's own updaters are observed, and they cannot remove its slice.
    guard let new = store.stateIfAvailable else { return }
    defer { lastState = new }
    if isSending, sentState == nil, type(of: update.updater) == sendingType {
      sentState = new
      return
    }
    received.append(Received(updater: update.updater, old: lastState, new: new))
    updateLedger()
  }

  func updateLedger() {
    ledger.update(
      Ledger.Snapshot(
        isExhaustive: exhaustivity == .on,
        unreceived: received.map { "\(type(of: $0.updater))" },
        runningEffects: store.runningEffectCount,
        runningSends: runningSends.keys.sorted().compactMap { runningSends[$0] }))
  }

  /// In exhaustive mode, fails if updaters were received and not asserted before `label`.
  func checkNothingPending(before label: String, at location: SourceLocation) {
    guard !received.isEmpty else { return }
    guard exhaustivity == .on else {
      received.removeAll()
      updateLedger()
      return
    }
    let names = received.map { "\(type(of: $0.updater))" }.joined(separator: ", ")
    Issue.record(
      """
      Before \(label), \(received.count) received updater(s) must be asserted: \(names). \
      Use `await store.receive(...)` first.
      """,
      sourceLocation: location)
    received.removeAll()
    updateLedger()
  }
}

/// An effect started by `send`, with the line that sent it.
struct RunningSend: Sendable {
  let name: String
  let location: SourceLocation
  /// The run's token in the store, once it has started.
  let token: @Sendable () -> UInt64?
}

/// What the end-of-test checks need, readable from `deinit` on any thread.
private final class Ledger: Sendable {
  struct Snapshot: Sendable {
    var isExhaustive = true
    var unreceived: [String] = []
    var runningEffects = 0
    var runningSends: [RunningSend] = []
  }

  private let current = Mutex(Snapshot())

  var snapshot: Snapshot { current.withLock { $0 } }

  func update(_ snapshot: Snapshot) {
    current.withLock { $0 = snapshot }
  }
}

extension TestStore where Dependencies == Void {
  /// Creates a test store whose effects need no dependencies.
  public convenience init(
    initialState: S, interceptors: [StoreInterceptor<S>] = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.init(
      initialState: initialState, dependencies: (), interceptors: interceptors,
      sourceLocation: sourceLocation)
  }
}
