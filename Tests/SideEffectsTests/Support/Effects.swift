import Foundation
import SideEffects

/// Dispatches `count` updaters, one after the other, tagged with `tag`.
struct AppendSeveral: SideEffect {
  let tag: String
  var count = 3
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    for index in 0..<count {
      await context.dispatch(Append(entry: "\(tag)\(index)"))
    }
  }
}

/// Increments, then returns the value it reads back.
struct IncrementAndRead: ReturningSideEffect {
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws -> Int {
    await context.dispatch(Increment())
    return await context.state.value
  }
}

/// Throws `TestError(message)`.
struct Failing: SideEffect {
  let message: String
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    throw TestError(message: message)
  }
}

/// Throws `TestError(message)`, returning nothing.
struct FailingReturning: ReturningSideEffect {
  let message: String
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws -> Int {
    throw TestError(message: message)
  }
}

/// Logs `start`, waits at the store's gate, then logs `end`.
struct WaitAtGate: SideEffect {
  let name: String
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    await context.dispatch(Append(entry: "\(name) start"))
    try await context.dependencies.gate.wait()
    await context.dispatch(Append(entry: "\(name) end"))
  }
}

/// Records whether it ran on the main thread, in the fake service.
struct ReportThread: SideEffect {
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    context.dependencies.service.record(Thread.isMainThread ? "main" : "background")
  }
}

/// A search that waits at the gate, then shows its query; the latest search wins.
struct Search: SideEffect {
  let query: String
  var cancellationID: CancellationID? { "search" }
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    context.dependencies.service.record("search \(query)")
    try await context.dependencies.gate.wait()
    await context.dispatch(SetResults(results: [query]))
  }
}

/// A search that shows its query at once; the latest search wins.
struct InstantSearch: SideEffect {
  let query: String
  var cancellationID: CancellationID? { "search" }
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    await context.dispatch(SetResults(results: [query]))
  }
}

/// A refresh that waits at the gate; while one runs, new ones are skipped.
struct Refresh: ReturningSideEffect {
  let name: String
  var cancellationID: (any Hashable & Sendable)? { "refresh" }
  var cancellationPolicy: CancellationPolicy { .keepInFlight }
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws -> String {
    context.dependencies.service.record("refresh \(name)")
    try await context.dependencies.gate.wait()
    return name
  }
}

/// Waits 300 ms on the injected clock, then shows its query; the latest search wins.
struct DebouncedSearch: SideEffect {
  let query: String
  var cancellationID: CancellationID? { "search" }
  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    try await context.dependencies.clock.sleep(for: .milliseconds(300))
    await context.dispatch(SetResults(results: [query]))
  }
}
