import SideEffects
import Synchronization
import Testing

/// A clock that only moves when a test advances it, so that debounces, timeouts and timers are
/// tested without real sleeps.
///
/// Inject it where the app injects `ContinuousClock`, as an `any Clock<Duration>` dependency:
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: AppState(), dependencies: AppDependencies(clock: clock))
/// await store.send(Search(query: "milk"))
/// await clock.advance(by: .milliseconds(300))
/// await store.receive(SetResults.self) { $0.results = ["milk"] }
/// ```
///
/// A ``TestStore`` finds the clock in its dependencies (or is given it with
/// ``TestStore/clock``), and the two then work together:
/// - ``advance(by:)`` first waits until every running effect of the store is blocked (asleep on
///   the clock, queued behind a blocked effect, or awaiting one) or has finished, so it never
///   runs ahead of an effect that is about to sleep; then it moves
///   from deadline to deadline, letting the woken effects run until they sleep again or finish.
///   A timer that sleeps one second in a loop ticks three times in `advance(by: .seconds(3))`.
/// - `receive` and `finish` fail at once, naming the effect and its deadline, when every running
///   effect is asleep on the clock: only advancing it can make progress.
///
/// The test is the one that advances the clock, so the test never waits on it. Its task (the
/// one that created the clock, advanced it last, or last called a ``TestStore`` working with it)
/// drives the clock, and two waits of that task would never end; both fail at once instead of
/// hanging, at the line of the mistake:
/// - a sleep on the clock itself (`try await clock.sleep(for: .milliseconds(300))` where
///   `await clock.advance(by: .milliseconds(300))` was meant): the issue names the sleep, its
///   line and deadline, and what else sleeps on the clock, and the sleep throws;
/// - with a test store, an await of an effect (its handle's `value` or `finish()`, or a
///   `dispatch` awaited on `store.store`) while every running effect is blocked on the clock:
///   the issue names each effect, the line that sent it and its deadline, and the effects are
///   cancelled, which ends the await.
///
/// A sleeper whose task is cancelled throws `CancellationError` at once.
public final class TestClock: Clock, Sendable {
  /// A point in the test clock's time: the duration since the clock was created.
  public struct Instant: InstantProtocol, Sendable {
    /// The time elapsed since the clock's start.
    public let offset: Duration

    /// Creates the instant `offset` after the clock's start.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The duration from this instant to `other`.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }
  }

  private struct Sleeper {
    let deadline: Instant
    /// The cause of the effect asleep (its type, after what started it), if an effect sleeps.
    let cause: String?
    /// The effect run asleep, when a task of an effect sleeps.
    let run: _EffectRunID?
    /// Whether the sleeping task is the effect's own, rather than a child task (`async let`, a
    /// task group) or a task it started.
    let isOwnTask: Bool
    let continuation: CheckedContinuation<Void, any Error>
  }

  /// A test store working with this clock.
  private struct Partner {
    /// Called (on any thread) when a task starts or stops sleeping.
    let sleepersChanged: @Sendable () -> Void
    /// Returns once every running effect of the partner's store is asleep or finished; `nil`
    /// for a partner that only listens (`Store.settled()`), which leaves `advance` as it is.
    let settle: (@Sendable () async -> Void)?
  }

  private struct Inner {
    var now = Instant(offset: .zero)
    var nextID: UInt64 = 0
    var sleepers: [UInt64: Sleeper] = [:]
    var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    var partners: [UInt64: Partner] = [:]
    /// A hash of the task that drives the clock (see ``TestClock``); 0 when unknown.
    var driver: Int
  }

  /// Not a `Mutex`: effects' threads and the main actor contend for it, and ThreadSanitizer does
  /// not see a contended `Mutex` handed over in the kernel on Linux.
  private let inner: _SpinLocked<Inner>

  /// Creates a clock at offset zero, driven by the current task (see ``TestClock``).
  public init() {
    inner = _SpinLocked(Inner(driver: Self.currentTask))
  }

  /// A hash of the current task, unique among running tasks; 0 outside a task.
  static var currentTask: Int {
    withUnsafeCurrentTask { $0?.hashValue } ?? 0
  }

  /// The current instant; it changes only in ``advance(by:)`` and ``advance(to:)``.
  public var now: Instant { inner.withLock { $0.now } }

  /// The smallest step: one nanosecond.
  public var minimumResolution: Duration { .nanoseconds(1) }

  /// The number of tasks sleeping on this clock now.
  public var sleeperCount: Int { inner.withLock { $0.sleepers.count } }

  /// Suspends until the clock is advanced to `deadline` or past it.
  ///
  /// - Throws: `CancellationError` when the sleeping task is cancelled; at once, an error that
  ///   says so (and an issue, recorded at the test) when the task that drives the clock sleeps
  ///   on it (see ``TestClock``): nothing would ever wake it.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await sleep(until: deadline, at: nil)
  }

  /// Suspends until the clock has moved `duration` past the current instant.
  ///
  /// The same as `Clock`'s `sleep(for:tolerance:)`, but for the line it remembers: when the
  /// task that drives the clock (see ``TestClock``) sleeps on it, the issue is recorded there.
  ///
  /// - Throws: `CancellationError` when the sleeping task is cancelled; at once, an error that
  ///   says so (and an issue, recorded at `sourceLocation`) when the task that drives the clock
  ///   sleeps on it.
  public func sleep(
    for duration: Duration, tolerance: Duration? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try await sleep(until: now.advanced(by: duration), at: sourceLocation)
  }

  private func sleep(until deadline: Instant, at location: SourceLocation?) async throws {
    let task = Self.currentTask
    let stalled = inner.withLock { inner -> [Sleeper]? in
      guard task != 0, task == inner.driver, deadline > inner.now, !Task.isCancelled else {
        return nil
      }
      return Array(inner.sleepers.values)
    }
    if let stalled {
      let report = stallReport(deadline: deadline, at: location, others: stalled)
      if let place = location ?? Test.current?.sourceLocation {
        Issue.record(Comment(rawValue: report), sourceLocation: place)
      } else {
        Issue.record(Comment(rawValue: report))
      }
      throw SleepNeverEnds(location: location)
    }
    let id = inner.withLock { inner -> UInt64 in
      inner.nextID &+= 1
      return inner.nextID
    }
    let run = _EffectRunID.current
    let isOwnTask = _EffectRunID._currentTaskRun != nil
    let cause = run == nil ? nil : DispatchCause.current?.name
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let (immediate, ready, partners) = inner.withLock {
          inner -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>], [Partner]) in
          if Task.isCancelled { return (.failure(CancellationError()), [], []) }
          if deadline <= inner.now { return (.success(()), [], []) }
          inner.sleepers[id] = Sleeper(
            deadline: deadline, cause: cause, run: run, isOwnTask: isOwnTask,
            continuation: continuation)
          return (nil, Self.takeReadyWaiters(&inner), Array(inner.partners.values))
        }
        if let immediate { continuation.resume(with: immediate) }
        for waiter in ready { waiter.resume() }
        for partner in partners { partner.sleepersChanged() }
      }
    } onCancel: {
      let sleeper = inner.withLock { $0.sleepers.removeValue(forKey: id) }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward by `duration` and wakes every sleeper whose deadline has come, in
  /// deadline order.
  ///
  /// With a ``TestStore`` working with this clock, it first waits until the store's effects are
  /// all asleep or finished, then steps from deadline to deadline, waiting after each step until
  /// the woken effects sleep again or finish; see ``TestClock``.
  ///
  /// - Complexity: O(s log s) per step for s sleepers.
  public func advance(by duration: Duration) async {
    let target = now.advanced(by: duration)
    await advance(to: target)
  }

  /// Moves the clock to `instant` (never backwards) and wakes every sleeper whose deadline has
  /// come, in deadline order.
  ///
  /// With a ``TestStore`` working with this clock, it steps from deadline to deadline as
  /// ``advance(by:)`` does.
  ///
  /// - Complexity: O(s log s) per step for s sleepers.
  public func advance(to instant: Instant) async {
    noteDriver()
    await settlePartners()
    let stepwise = inner.withLock { $0.partners.values.contains { $0.settle != nil } }
    while true {
      let due = inner.withLock { inner -> [Sleeper] in
        // Without a partner nothing tells when a woken sleeper has run, so the clock jumps
        // straight to `instant`: every woken task then reads the same `now`.
        let next =
          stepwise ? inner.sleepers.values.map(\.deadline).filter { $0 <= instant }.min() : nil
        let step = next ?? instant
        if inner.now < step { inner.now = step }
        let due = inner.sleepers.filter { $0.value.deadline <= inner.now }
        for id in due.keys { inner.sleepers[id] = nil }
        return due.values.sorted { $0.deadline < $1.deadline }
      }
      if due.isEmpty { return }
      for sleeper in due { sleeper.continuation.resume() }
      guard stepwise else { return }
      await settlePartners()
    }
  }

  /// Suspends until at least `count` tasks are sleeping on this clock.
  ///
  /// A clock that works with a ``TestStore`` does not need it: ``advance(by:)`` waits for the
  /// store's effects to reach their sleep. With one, this waits the same way (until every
  /// running effect of the store sleeps or has finished) and returns then whatever the count,
  /// so that calling it after an `advance` that let the effects finish does not hang.
  ///
  /// Without a test store (effects on a plain `Store`), call it before ``advance(by:)`` when an
  /// effect has been started but may not have reached its sleep yet: advancing first would
  /// leave its deadline in the future.
  public func waitForSleepers(_ count: Int = 1) async {
    noteDriver()
    if inner.withLock({ $0.partners.values.contains { $0.settle != nil } }) {
      await settlePartners()
      return
    }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let reached = inner.withLock { inner -> Bool in
        if inner.sleepers.count >= count { return true }
        inner.sleeperWaiters.append((count, continuation))
        return false
      }
      if reached { continuation.resume() }
    }
  }

  /// The effect runs of one store asleep on this clock, with their earliest deadlines.
  ///
  /// - Parameters:
  ///   - registry: Whose runs: the store's `effectRunsID`.
  ///   - ownTasksOnly: Whether only a sleep of the effect's own task counts. A sleep of a child
  ///     task (a timeout raced against a request in a task group) may leave the effect
  ///     working: the count that says "nothing else can happen" takes only its own task.
  /// - Complexity: O(s) for s sleepers.
  package func sleepingRuns(in registry: ObjectIdentifier, ownTasksOnly: Bool) -> [UInt64: Instant]
  {
    inner.withLock { inner in
      var runs: [UInt64: Instant] = [:]
      for sleeper in inner.sleepers.values {
        guard let run = sleeper.run, run.registry == registry else { continue }
        guard sleeper.isOwnTask || !ownTasksOnly else { continue }
        runs[run._token] = min(runs[run._token] ?? sleeper.deadline, sleeper.deadline)
      }
      return runs
    }
  }

  /// Takes the current task as the one that drives the clock (see ``TestClock``): the test's
  /// calls to a test store working with the clock say so.
  package func noteDriver() {
    let task = Self.currentTask
    guard task != 0 else { return }
    inner.withLock { $0.driver = task }
  }

  /// Whether the task whose hash is `task` drives the clock (see ``TestClock``).
  package func isDriver(_ task: Int) -> Bool {
    task != 0 && inner.withLock { $0.driver } == task
  }

  /// The issue of the driving task's sleep until `deadline`, made at `location` if known, while
  /// `others` sleep on the clock.
  private func stallReport(deadline: Instant, at location: SourceLocation?, others: [Sleeper])
    -> String
  {
    let test = Test.current.map { "test \"\($0.displayName ?? $0.name)\"" } ?? "test"
    let place = location.map { " (at \($0.fileID):\($0.line))" } ?? ""
    let step = deadline.offset - now.offset
    var lines = [
      "The \(test) sleeps on its own TestClock until \(deadline.offsetDescription)\(place), "
        + "but only the test advances that clock, so the sleep would never end; it throws "
        + "instead. Advance the clock, which lets the effects asleep on it run first: "
        + "`await clock.advance(by: \(Self.durationLiteral(step)))`."
    ]
    let effects = others.filter { $0.run != nil }.sorted { $0.deadline < $1.deadline }
    if effects.isEmpty {
      lines.append("No effect sleeps on the clock now.")
    } else {
      lines.append("Asleep on the clock now:")
      for sleeper in effects {
        lines.append(
          "  \(sleeper.cause ?? "an effect") until \(sleeper.deadline.offsetDescription)")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `duration` as Swift source: `.milliseconds(300)`, `.seconds(2)`.
  private static func durationLiteral(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds == 0 { return ".seconds(\(seconds))" }
    let perMillisecond: Int64 = 1_000_000_000_000_000
    if attoseconds % perMillisecond == 0, seconds < Int64.max / 1000 {
      return ".milliseconds(\(seconds * 1000 + attoseconds / perMillisecond))"
    }
    return "\(duration)"
  }

  /// Lets a test store work with this clock; ``detach(_:)`` with the returned key ends it.
  ///
  /// - Parameters:
  ///   - sleepersChanged: Called, on any thread, after a task starts sleeping.
  ///   - settle: Awaited before and after each step of ``advance(to:)``; `nil` to listen only.
  package func attach(
    sleepersChanged: @escaping @Sendable () -> Void, settle: (@Sendable () async -> Void)?
  ) -> UInt64 {
    inner.withLock { inner in
      inner.nextID &+= 1
      inner.partners[inner.nextID] = Partner(sleepersChanged: sleepersChanged, settle: settle)
      return inner.nextID
    }
  }

  /// Ends the partnership that ``attach(sleepersChanged:settle:)`` returned `key` for.
  package func detach(_ key: UInt64) {
    _ = inner.withLock { $0.partners.removeValue(forKey: key) }
  }

  private func settlePartners() async {
    let partners = inner.withLock { Array($0.partners.values) }
    for partner in partners { await partner.settle?() }
  }

  private static func takeReadyWaiters(_ inner: inout Inner) -> [CheckedContinuation<Void, Never>] {
    let count = inner.sleepers.count
    let ready = inner.sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
    inner.sleeperWaiters.removeAll { $0.count <= count }
    return ready
  }
}

/// What a sleep of the task that drives a ``TestClock`` throws: nothing would ever wake it.
private struct SleepNeverEnds: Error, CustomStringConvertible {
  let location: SourceLocation?

  var description: String {
    let place = location.map { " at \($0.fileID):\($0.line)" } ?? ""
    return "the test's sleep on its own TestClock\(place) was ended: only the test advances the "
      + "clock (see the issue recorded there)"
  }
}
