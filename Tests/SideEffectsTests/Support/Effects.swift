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
    return await context.getState().value
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
