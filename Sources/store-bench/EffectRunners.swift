import ActionLog
import Foundation
import SideEffects
import StateStore

/// How many effects E2 launches in one operation.
let effectBatch = 10_000

/// E1 and E2's side effect: dispatches one `Increment`.
struct IncrementEffect: SideEffect {
  func sideEffect(_ context: SideEffectContext<AppState, Void>) async throws {
    await context.dispatch(Increment())
  }
}

/// E1 through the store: a task off the main actor awaits `store.dispatch(IncrementEffect())`,
/// one effect after the other.
@MainActor
final class AwaitedEffectRunner: Runner {
  let name: String
  let store = Store<AppState, Void>(dependencies: ())
  var errors = 0

  init(name: String = "store") {
    self.name = name
  }

  func perform(_ operations: Int) async {
    errors += await awaitEffects(IncrementEffect(), operations, on: store)
  }

  func verify(operations: Int) -> [String] {
    counterFailures(store.state.counter, operations: operations, errors: errors)
  }
}

/// The state the effect floors mutate: a counter on the main actor.
@MainActor
final class MainActorCounter {
  var counter = 0

  func increment() {
    counter += 1
  }
}

/// E1's floor: the same task off the main actor awaits a plain `Task` that hops to the main
/// actor and increments a counter, one after the other.
@MainActor
final class AwaitedTaskFloor: Runner {
  let name = "plain task floor"
  let state = MainActorCounter()

  func perform(_ operations: Int) async {
    let state = state
    await Task.detached {
      for _ in 0..<operations {
        await Task { await state.increment() }.value
      }
    }.value
  }

  func verify(operations: Int) -> [String] {
    counterFailures(state.counter, operations: operations, errors: 0)
  }
}

/// E2 through the store: ``effectBatch`` effects launched with `store.launch(_:)` from the
/// main actor, then every handle awaited; the figures are per effect.
@MainActor
final class LaunchedEffectsRunner: Runner {
  let name = "store"
  let store = Store<AppState, Void>(dependencies: ())
  var errors = 0

  var entriesPerOperation: Int { effectBatch }

  func perform(_ operations: Int) async {
    for _ in 0..<operations {
      var handles: [EffectTask<Void>] = []
      handles.reserveCapacity(effectBatch)
      for _ in 0..<effectBatch {
        handles.append(store.launch(IncrementEffect()))
      }
      for handle in handles {
        if case .failure = await handle.result { errors += 1 }
      }
    }
  }

  func verify(operations: Int) -> [String] {
    counterFailures(store.state.counter, operations: operations * effectBatch, errors: errors)
  }
}

/// E2's floor: ``effectBatch`` plain tasks, each hopping to the main actor to increment a
/// counter, started from the main actor and then all awaited.
@MainActor
final class LaunchedTasksFloor: Runner {
  let name = "plain task floor"
  let state = MainActorCounter()

  var entriesPerOperation: Int { effectBatch }

  func perform(_ operations: Int) async {
    let state = state
    for _ in 0..<operations {
      var tasks: [Task<Void, Never>] = []
      tasks.reserveCapacity(effectBatch)
      for _ in 0..<effectBatch {
        tasks.append(Task.detached { await state.increment() })
      }
      for task in tasks {
        await task.value
      }
    }
  }

  func verify(operations: Int) -> [String] {
    counterFailures(state.counter, operations: operations * effectBatch, errors: 0)
  }
}

/// Awaits `effect`, dispatched `operations` times in turn from a task off the main actor (E1,
/// E3); returns how many threw.
func awaitEffects<E: SideEffect>(
  _ effect: E, _ operations: Int, on store: Store<AppState, Void>
) async -> Int where E.StateType == AppState, E.Dependencies == Void {
  await Task.detached {
    var errors = 0
    for _ in 0..<operations {
      do {
        try await store.dispatch(effect)
      } catch {
        errors += 1
      }
    }
    return errors
  }.value
}

/// The checks every effect runner makes: each effect applied its increment exactly once, and
/// none failed.
func counterFailures(_ counter: Int, operations: Int, errors: Int) -> [String] {
  var failures: [String] = []
  if counter != operations {
    failures.append("expected counter \(operations), found \(counter)")
  }
  if errors != 0 {
    failures.append("\(errors) effects failed")
  }
  return failures
}

/// E3's side effect: gets one value through `context.recorded`, then dispatches one
/// `Increment`.
struct RecordedIncrementEffect: SideEffect {
  func sideEffect(_ context: SideEffectContext<AppState, Void>) async throws {
    let step = try await context.recorded("step") { 1 }
    if step == 1 { await context.dispatch(Increment()) }
  }
}

/// E3 through the store: E1 with an action recorder that records effects, buffered to a file:
/// each effect's start, its one recorded value and its end, and its updater.
@MainActor
final class RecordedEffectRunner: Runner {
  let name = "store"
  let store = Store<AppState, Void>(dependencies: ())
  let file = TemporaryFile("e3")
  var recorder: ActionRecorder?
  var errors = 0
  var failures: [String] = []

  init() {
    try? FileManager.default.removeItem(at: file.url)
    do {
      recorder = try ActionRecorder(
        store: store, registry: ActionLogRegistry<AppState>().register(Increment.self),
        destination: .file(file.url),
        options: ActionRecorder.Options(bufferCapacity: 64 * 1024, recordsEffects: true))
    } catch {
      failures.append("recording failed: \(error)")
    }
  }

  func perform(_ operations: Int) async {
    errors += await awaitEffects(RecordedIncrementEffect(), operations, on: store)
  }

  func verify(operations: Int) -> [String] {
    var failures = self.failures
    failures += counterFailures(store.state.counter, operations: operations, errors: errors)
    do {
      try recorder?.flush()
      let log = try Data(contentsOf: file.url)
      let effects = try ActionReplayer(registry: ActionLogRegistry<AppState>()).effects(log)
      if effects.count != operations {
        failures.append("expected \(operations) effects in the log, found \(effects.count)")
      }
      if let wrong = effects.first(where: { $0.end != .finished || $0.values.count != 1 }) {
        failures.append("effect \(wrong.number) recorded as \(wrong)")
      }
    } catch {
      failures.append("reading the log failed: \(error)")
    }
    return failures
  }
}
