import Foundation

/// A one-shot latch for making effects wait without time: `wait()` suspends until `open()`.
///
/// Waiting is cancellable: a cancelled waiter throws `CancellationError` at once, which is how
/// tests watch cancellation reach an effect.
final class Gate: Sendable {
  private struct Inner {
    var isOpen = false
    var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    var nextID: UInt64 = 0
    var arrivals = 0
    var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let inner = PthreadLocked(Inner())

  init() {}

  /// Suspends until the gate opens; throws `CancellationError` if the task is cancelled.
  func wait() async throws {
    let id = inner.withLock { inner -> UInt64 in
      inner.nextID += 1
      return inner.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let (ready, immediate) = inner.withLock {
          inner -> ([CheckedContinuation<Void, Never>], Result<Void, any Error>?) in
          inner.arrivals += 1
          let ready = inner.arrivalWaiters.filter { $0.count <= inner.arrivals }
          inner.arrivalWaiters.removeAll { $0.count <= inner.arrivals }
          if Task.isCancelled { return (ready.map(\.continuation), .failure(CancellationError())) }
          if inner.isOpen { return (ready.map(\.continuation), .success(())) }
          inner.waiters[id] = continuation
          return (ready.map(\.continuation), nil)
        }
        for waiter in ready { waiter.resume() }
        if let immediate { continuation.resume(with: immediate) }
      }
    } onCancel: {
      let waiter = inner.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.resume(throwing: CancellationError())
    }
  }

  /// Opens the gate: every waiter, present and future, goes on.
  func open() {
    let waiters = inner.withLock { inner -> [CheckedContinuation<Void, any Error>] in
      inner.isOpen = true
      defer { inner.waiters.removeAll() }
      return Array(inner.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Suspends until `count` waits have reached the gate (counting those that already left).
  func arrivals(_ count: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let reached = inner.withLock { inner -> Bool in
        if inner.arrivals >= count { return true }
        inner.arrivalWaiters.append((count, continuation))
        return false
      }
      if reached { continuation.resume() }
    }
  }
}

/// A value behind a `pthread` mutex (through `NSLock`), for test helpers that many tasks contend
/// for at once.
///
/// `Synchronization.Mutex` on Linux hands a contended lock over inside the kernel (a
/// priority-inheriting futex), where ThreadSanitizer cannot see the hand-over, so a contended
/// `Mutex` is reported as a race that is not one. ThreadSanitizer intercepts `pthread_mutex`, so
/// this lock keeps `swift test --sanitize=thread` free of such false reports.
final class PthreadLocked<Value: Sendable>: @unchecked Sendable {
  // Sendable because `value` is only ever reached inside `withLock`, between `lock()` and
  // `unlock()` of `lock`: `body` gets it `inout`, which cannot escape the call, and a `body` that
  // calls `withLock` again deadlocks rather than overlapping accesses.
  private var value: Value
  private let lock = NSLock()

  init(_ value: Value) {
    self.value = value
  }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
