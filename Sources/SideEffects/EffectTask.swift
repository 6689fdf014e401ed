import Synchronization

/// A handle on a side effect started without being awaited: cancel it, or await its outcome.
///
/// Releasing the handle does not cancel the effect; call ``cancel()``.
///
/// ```swift
/// let task = store.launch(Search(query: "milk"))
/// task.cancel()
/// ```
public final class EffectTask<Success: Sendable>: Sendable {
  @usableFromInline
  enum _Phase {
    /// Still in the interceptors (queued behind a running dispatch).
    case pending([CheckedContinuation<_Started, Never>])
    case started(_Started)
  }

  @usableFromInline
  enum _Started: Sendable {
    case running(Task<Success, any Error>)
    case notRun(Result<Success, any Error>)
  }

  @usableFromInline let _phase: Mutex<_Phase>
  @usableFromInline let _cancelled = Atomic<Bool>(false)
  /// The run's token in its store's effect registry, once it has started; 0 before.
  @usableFromInline let _runToken = Atomic<UInt64>(0)
  /// A hash of the run's own task, which the task stores as its first step; 0 before.
  private let ownTask = Atomic<Int>(0)

  /// The run's entry in its store's `EffectRegistry`: the handle is the registry's record of
  /// the run too, so that a run costs one object besides its task.
  @usableFromInline @MainActor var entry = _EffectRunEntry()

  /// A handle whose effect is still on its way through the interceptors.
  @inlinable
  init() {
    _phase = Mutex(.pending([]))
  }

  /// A handle on an effect that did not run.
  @usableFromInline
  init(notRun result: Result<Success, any Error>) {
    _phase = Mutex(.started(.notRun(result)))
  }

  /// Whether ``cancel()`` has been called.
  @inlinable
  public var isCancelled: Bool { _cancelled.load(ordering: .acquiring) }

  /// Cancels the effect; calling it again does nothing.
  ///
  /// The effect sees `Task.isCancelled`, its sleeps throw and the updaters it dispatches from
  /// now on are ignored.
  public func cancel() {
    _cancelled.store(true, ordering: .releasing)
    runningTask?.cancel()
  }

  /// Waits for the effect and returns its value.
  ///
  /// Awaiting does not own the effect: cancelling the awaiting task leaves the effect running.
  ///
  /// - Throws: Whatever the effect threw, or ``EffectNotRunError`` when a returning effect did
  ///   not run.
  @inlinable
  nonisolated(nonsending) public var value: Success {
    get async throws {
      // Awaited where the caller runs: a handle awaited on the main actor does not hop off it
      // and back for each effect.
      switch await started() {
      case .running(let task):
        // A test tool may want to know who waits for the run (see `EffectAwaits`).
        if EffectAwaits.isWatched.load(ordering: .relaxed) {
          return try await EffectAwaits.awaitWatched(task, of: self)
        }
        return try await task.value
      case .notRun(let result): return try result.get()
      }
    }
  }

  /// Waits for the effect and returns its outcome.
  @inlinable
  nonisolated(nonsending) public var result: Result<Success, any Error> {
    get async {
      do { return .success(try await value) } catch { return .failure(error) }
    }
  }

  /// Waits until the effect has finished, whatever its outcome.
  nonisolated(nonsending) public func finish() async {
    _ = await result
  }

  /// The token of the effect's run in its store, once it has started running; test tools match
  /// it against the store's running effects.
  package var token: UInt64? {
    let token = _runToken.load(ordering: .acquiring)
    return token == 0 ? nil : token
  }

  /// The run's task, once it has started.
  private var runningTask: Task<Success, any Error>? {
    _phase.withLock { phase in
      if case .started(.running(let task)) = phase { return task }
      return nil
    }
  }

  /// Records how the effect started, once its trip through the interceptors is over; `token`
  /// names the run when it runs.
  @inlinable
  func attach(_ started: _Started, token: UInt64? = nil) {
    if let token { _runToken.store(token, ordering: .releasing) }
    let waiters = _phase.withLock { phase -> [CheckedContinuation<_Started, Never>] in
      guard case .pending(let waiters) = phase else { return [] }
      phase = .started(started)
      return waiters
    }
    if isCancelled, case .running(let task) = started { task.cancel() }
    for waiter in waiters { waiter.resume(returning: started) }
  }

  /// Records, from the run's own task, which task that is.
  @usableFromInline
  func _recordOwnTask() {
    ownTask.store(_EffectRunID.taskHash, ordering: .releasing)
  }

  @inlinable
  nonisolated(nonsending) func started() async -> _Started {
    // Started already, as a handle almost always is by the time it is awaited: no continuation.
    let known = _phase.withLock { phase -> _Started? in
      if case .started(let started) = phase { return started }
      return nil
    }
    if let known { return known }
    return await withCheckedContinuation { continuation in
      let started = _phase.withLock { phase -> _Started? in
        switch phase {
        case .started(let started): return started
        case .pending(var waiters):
          waiters.append(continuation)
          phase = .pending(waiters)
          return nil
        }
      }
      if let started { continuation.resume(returning: started) }
    }
  }
}

extension EffectTask: _EffectRun {
  @usableFromInline
  func cancelRun() {
    runningTask?.cancel()
  }

  @usableFromInline
  var ownTaskHash: Int {
    ownTask.load(ordering: .acquiring)
  }

  @usableFromInline
  var isTaskCancelled: Bool {
    runningTask?.isCancelled ?? false
  }

  @usableFromInline
  var isHandleCancelled: Bool {
    isCancelled
  }
}
