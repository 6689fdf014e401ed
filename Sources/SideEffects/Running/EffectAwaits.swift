import StateStore
import Synchronization

/// Who awaits which effect run, for test tools: a test that awaits an effect asleep on a
/// `TestClock` that only the test advances would wait forever, and the test store says so at
/// once instead.
///
/// Every await of a running effect's ``EffectTask`` (its `value`, `result`, `finish()`, and a
/// `dispatch` that awaits the effect) tells the watchers when it begins and ends, with the
/// awaiting task and the run. Nothing is told, and an await costs one relaxed atomic load more,
/// while nobody watches.
@usableFromInline
package enum EffectAwaits {
  /// One await of a run beginning or ending.
  package struct Event: Sendable {
    /// A hash of the awaiting task (`withUnsafeCurrentTask`), unique among running tasks.
    package let awaiter: Int
    /// The run awaited, as ``RunningEffect/run`` names it.
    package let run: ObjectIdentifier
    /// Whether the await begins (`false`: it ended).
    package let begins: Bool
  }

  /// Whether any watcher is registered: read on each await.
  @usableFromInline static let isWatched = Atomic<Bool>(false)
  private static let watchers = _SpinLocked<(next: UInt64, all: [UInt64: Watcher])>((0, [:]))

  private typealias Watcher = @Sendable (Event) -> Void

  /// Calls `watcher`, on the awaiting task, as each await of a running effect begins and ends,
  /// until the token is cancelled.
  package static func watch(_ watcher: @escaping @Sendable (Event) -> Void) -> Subscription {
    let key = watchers.withLock { watchers -> UInt64 in
      watchers.next &+= 1
      watchers.all[watchers.next] = watcher
      isWatched.store(true, ordering: .relaxed)
      return watchers.next
    }
    return Subscription {
      watchers.withLock { watchers in
        watchers.all[key] = nil
        isWatched.store(!watchers.all.isEmpty, ordering: .relaxed)
      }
    }
  }

  /// Awaits `task`, the running task of `run`, telling the watchers before and after.
  @usableFromInline
  nonisolated(nonsending) static func awaitWatched<Success: Sendable>(
    _ task: Task<Success, any Error>, of run: AnyObject
  ) async throws -> Success {
    let awaiter = withUnsafeCurrentTask { $0?.hashValue } ?? 0
    let id = ObjectIdentifier(run)
    tell(Event(awaiter: awaiter, run: id, begins: true))
    defer { tell(Event(awaiter: awaiter, run: id, begins: false)) }
    return try await task.value
  }

  private static func tell(_ event: Event) {
    for watcher in watchers.withLock({ Array($0.all.values) }) { watcher(event) }
  }
}
