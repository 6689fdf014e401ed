import Foundation
import SideEffects
import Synchronization

/// The state every side-effect test runs on.
struct Counter: State, Equatable {
  var value = 0
  var log: [String] = []
  var results: [String] = []
}

struct Increment: StateUpdater {
  func updateState(_ state: inout Counter) { state.value += 1 }
}

struct Append: StateUpdater, Equatable {
  let entry: String
  func updateState(_ state: inout Counter) { state.log.append(entry) }
}

struct SetResults: StateUpdater, Equatable {
  let results: [String]
  func updateState(_ state: inout Counter) { state.results = results }
}

/// A fake service shared by every effect of a store; a class so tests can check identity.
final class FakeService: Sendable {
  private let calls = Mutex<[String]>([])

  var recorded: [String] { calls.withLock { $0 } }

  func record(_ call: String) {
    calls.withLock { $0.append(call) }
  }
}

struct Dependencies: Sendable {
  let service: FakeService
  let gate: Gate
  let clock: any Clock<Duration>
}

struct TestError: Error, Equatable {
  let message: String
}

@MainActor
func makeStore(
  clock: any Clock<Duration> = ContinuousClock(),
  interceptors: [StoreInterceptor<Counter>] = []
) -> Store<Counter, Dependencies> {
  Store(
    initialState: Counter(),
    dependencies: Dependencies(service: FakeService(), gate: Gate(), clock: clock),
    interceptors: interceptors)
}

/// Collects the errors a store reports to its unhandled-error hook.
@MainActor
final class ErrorHook {
  private(set) var errors: [String] = []
  private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

  init<D>(_ store: Store<Counter, D>) {
    store.onUnhandledError = { [weak self] error, dispatchable in
      guard let self else { return }
      self.errors.append("\(type(of: dispatchable)): \(error)")
      let ready = self.waiters.filter { $0.count <= self.errors.count }
      self.waiters.removeAll { $0.count <= self.errors.count }
      for waiter in ready { waiter.continuation.resume() }
    }
  }

  /// Suspends until `count` errors have been reported.
  func waitForErrors(_ count: Int) async {
    guard errors.count < count else { return }
    await withCheckedContinuation { waiters.append((count, $0)) }
  }
}

// Every suite here carries `.timeLimit(.minutes(5))`: a backstop that turns a hang into a
// failure. It is generous on purpose. These stores live on the main actor, which the whole test
// process shares; the todo app's storage fault sweep keeps it busy with thousands of commands
// (about 40 s in a debug run, 6 minutes under ThreadSanitizer), and a test that hops to the main
// actor hundreds of times waits behind it without being stuck.
