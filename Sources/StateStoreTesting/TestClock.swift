import Synchronization

/// A clock that only moves when a test advances it, so that debounces, timeouts and timers are
/// tested without real sleeps.
///
/// Inject it where the app injects `ContinuousClock`, as an `any Clock<Duration>` dependency:
///
/// ```swift
/// let clock = TestClock()
/// let store = TestStore(initialState: AppState(), dependencies: AppDependencies(clock: clock))
/// await store.send(Search(query: "milk"))
/// await clock.waitForSleepers(1)
/// await clock.advance(by: .milliseconds(300))
/// await store.receive(SetResults.self) { $0.results = ["milk"] }
/// ```
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
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Inner {
    var now = Instant(offset: .zero)
    var nextID: UInt64 = 0
    var sleepers: [UInt64: Sleeper] = [:]
    var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let inner = Mutex(Inner())

  /// Creates a clock at offset zero.
  public init() {}

  /// The current instant; it changes only in ``advance(by:)`` and ``advance(to:)``.
  public var now: Instant { inner.withLock { $0.now } }

  /// The smallest step: one nanosecond.
  public var minimumResolution: Duration { .nanoseconds(1) }

  /// The number of tasks sleeping on this clock now.
  public var sleeperCount: Int { inner.withLock { $0.sleepers.count } }

  /// Suspends until the clock is advanced to `deadline` or past it.
  ///
  /// - Throws: `CancellationError` when the sleeping task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = inner.withLock { inner -> UInt64 in
      inner.nextID &+= 1
      return inner.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let (immediate, ready) = inner.withLock {
          inner -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
          if Task.isCancelled { return (.failure(CancellationError()), []) }
          if deadline <= inner.now { return (.success(()), []) }
          inner.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          return (nil, Self.takeReadyWaiters(&inner))
        }
        if let immediate { continuation.resume(with: immediate) }
        for waiter in ready { waiter.resume() }
      }
    } onCancel: {
      let sleeper = inner.withLock { $0.sleepers.removeValue(forKey: id) }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward by `duration` and wakes every sleeper whose deadline has come, in
  /// deadline order.
  ///
  /// - Complexity: O(s log s) for s sleepers.
  public func advance(by duration: Duration) async {
    let target = now.advanced(by: duration)
    await advance(to: target)
  }

  /// Moves the clock to `instant` (never backwards) and wakes every sleeper whose deadline has
  /// come, in deadline order.
  ///
  /// - Complexity: O(s log s) for s sleepers.
  public func advance(to instant: Instant) async {
    let due = inner.withLock { inner -> [Sleeper] in
      if inner.now < instant { inner.now = instant }
      let due = inner.sleepers.filter { $0.value.deadline <= inner.now }
      for id in due.keys { inner.sleepers[id] = nil }
      return due.values.sorted { $0.deadline < $1.deadline }
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Suspends until at least `count` tasks are sleeping on this clock.
  ///
  /// Call it before ``advance(by:)`` when an effect has been started but may not have reached
  /// its sleep yet: advancing first would leave its deadline in the future.
  public func waitForSleepers(_ count: Int = 1) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let reached = inner.withLock { inner -> Bool in
        if inner.sleepers.count >= count { return true }
        inner.sleeperWaiters.append((count, continuation))
        return false
      }
      if reached { continuation.resume() }
    }
  }

  private static func takeReadyWaiters(_ inner: inout Inner) -> [CheckedContinuation<Void, Never>] {
    let count = inner.sleepers.count
    let ready = inner.sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
    inner.sleeperWaiters.removeAll { $0.count <= count }
    return ready
  }
}
