import Foundation
import SideEffects
import Synchronization
import Testing

/// Counts deliveries, on the main actor.
@MainActor
final class Deliveries {
  private(set) var values: [Int] = []
  private var waiter: CheckedContinuation<Void, Never>?

  func deliver(_ value: Int) {
    values.append(value)
    waiter?.resume()
    waiter = nil
  }

  /// Suspends until at least one value has been delivered.
  func first() async {
    guard values.isEmpty else { return }
    await withCheckedContinuation { waiter = $0 }
  }
}

/// Runs `body` on a new thread (never the main thread) and returns once it has run.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    Thread {
      body()
      continuation.resume()
    }.start()
  }
}

/// Holds one object, so that another thread can release it.
final class Holder<T: AnyObject & Sendable>: Sendable {
  private let held: Mutex<T?>
  init(_ value: T) { held = Mutex(value) }
  /// Releases the object.
  func clear() {
    let value = held.withLock { $0.take() }
    _ = consume value
  }
}

@MainActor
@Suite("No thread stands in for the main actor", .timeLimit(.minutes(5)))
struct ExecutorCheckTests {
  @Test("a dropped resolver delivers its release value once, on the main actor, from any thread")
  func resolverReleasedOnAnotherThread() async {
    let deliveries = Deliveries()
    let holder = Holder(ResolveOnce(whenReleased: 7) { deliveries.deliver($0) })
    await onAnotherThread { holder.clear() }
    await deliveries.first()
    MainActor.preconditionIsolated()
    #expect(deliveries.values == [7])
  }

  @Test("a resolver released on the main actor delivers too; a resolved one never again")
  func resolverReleasedOnTheMainActor() async {
    let deliveries = Deliveries()
    var dropped: ResolveOnce<Int>? = ResolveOnce(whenReleased: 1) { deliveries.deliver($0) }
    #expect(dropped != nil)
    dropped = nil
    await deliveries.first()
    var resolved: ResolveOnce<Int>? = ResolveOnce(whenReleased: 2) { deliveries.deliver($0) }
    resolved?.resolve(3)
    resolved = nil
    // A later dropped resolver proves the hop queue has run past the resolved one's release.
    let marker = Deliveries()
    var last: ResolveOnce<Int>? = ResolveOnce(whenReleased: 4) { marker.deliver($0) }
    #expect(last != nil)
    last = nil
    await marker.first()
    #expect(deliveries.values == [1, 3])
  }

  @Test("an effect-change observer cancelled on another thread is gone when cancel returns")
  func observerCancelledOnAnotherThread() async throws {
    let store = makeStore()
    var heard = 0
    let token = store.observeEffectChanges { heard += 1 }
    try await store.dispatch(IncrementAndRead())
    #expect(heard == 2)
    // The main actor waits for the thread without suspending: nothing queued on it (a hop) can
    // run before the launch below, so only a removal done inside `cancel()` counts.
    let done = DispatchSemaphore(value: 0)
    Thread {
      token.cancel()
      done.signal()
    }.start()
    done.wait()
    _ = try await store.launch(IncrementAndRead()).value
    #expect(heard == 2)
  }
}
