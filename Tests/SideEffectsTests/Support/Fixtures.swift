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

struct Append: StateUpdater {
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
}

struct TestError: Error, Equatable {
  let message: String
}

@MainActor
func makeStore(
  interceptors: [StoreInterceptor<Counter>] = []
) -> Store<Counter, Dependencies> {
  Store(
    initialState: Counter(), dependencies: Dependencies(service: FakeService(), gate: Gate()),
    interceptors: interceptors)
}
