import Dispatch

/// A serial queue for blocking file work, so that no `fsync` ever runs on the store's actor or
/// holds a thread of Swift's cooperative pool.
struct WriteQueue: Sendable {
  private let queue: DispatchQueue

  init(label: String) {
    queue = DispatchQueue(label: label)
  }

  /// Runs work on `queue`.
  init(_ queue: DispatchQueue) {
    self.queue = queue
  }

  /// Runs `work` on the queue, after everything queued before it, and returns its result.
  func run<Success: Sendable>(
    _ work: @escaping @Sendable () -> Result<Success, PersistenceError>
  ) async -> Result<Success, PersistenceError> {
    await withCheckedContinuation { continuation in
      queue.async { continuation.resume(returning: work()) }
    }
  }

  /// Runs `work` on the queue without waiting for it.
  func start(_ work: @escaping @Sendable () -> Void) {
    queue.async(execute: work)
  }
}

/// Sleeps on `clock` for `duration`; throws `CancellationError` when the task is cancelled.
func sleep<C: Clock<Duration>>(on clock: C, for duration: Duration) async throws {
  try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil)
}
