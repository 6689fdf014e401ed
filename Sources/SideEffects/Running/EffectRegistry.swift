import Foundation
import StateStore

/// The running effects of one store: what cancels them, which identifier each one holds, whose
/// turn it is among effects queued under one identifier, and who wants to hear when one finishes.
///
/// Kept in the store's extension storage, so it lives and dies with the store.
@MainActor
final class EffectRegistry {
  private struct Running {
    let id: AnyHashable?
    /// The effect's type, named only when a test tool asks (naming costs more than a start).
    let type: Any.Type
    /// The effect whose own task awaits this one (a nested `context.dispatch`), if any.
    let awaitedBy: UInt64?
    let cancel: @Sendable () -> Void
  }

  private var nextToken: UInt64 = 0
  private var running: [UInt64: Running] = [:]
  /// Per identifier, the runs holding it, in dispatch order: the oldest first.
  private var lanes: [AnyHashable: [UInt64]] = [:]
  /// Queued runs (``CancellationPolicy/enqueue``) suspended until every run before them in
  /// their lane has ended.
  private var turns: [UInt64: CheckedContinuation<Void, any Error>] = [:]
  /// Queued runs that have not had their turn yet.
  private var queued: Set<UInt64> = []
  private var finishObservers: [UInt64: @MainActor () -> Void] = [:]
  /// The names of the effect types started so far: a type's name is demangled at run time,
  /// which costs more than the rest of an effect's start.
  private var typeNames: [ObjectIdentifier: String] = [:]

  /// The registry of `store`, created on first use.
  static func of<S, D>(_ store: Store<S, D>) -> EffectRegistry {
    let key = ObjectIdentifier(EffectRegistry.self)
    if let registry = store.extensionStorage[key] as? EffectRegistry { return registry }
    let registry = EffectRegistry()
    store.extensionStorage[key] = registry
    return registry
  }

  /// How many effects are running, queued ones included.
  var count: Int { running.count }

  /// The name of the effect type `type`, as its updaters' cause records it.
  func name(of type: any AnySideEffect.Type) -> String {
    let key = ObjectIdentifier(type)
    if let name = typeNames[key] { return name }
    let name = String(describing: type)
    typeNames[key] = name
    return name
  }

  /// A fresh token naming one run.
  func makeToken() -> UInt64 {
    nextToken &+= 1
    return nextToken
  }

  /// Whether any effect with identifier `id` is running or queued.
  func isHeld(_ id: AnyHashable) -> Bool {
    lanes[id]?.isEmpty == false
  }

  /// Records a started effect; a queued one (`queued`) waits in ``waitForTurn(_:id:)``.
  func begin(
    _ token: UInt64, id: AnyHashable?, type: Any.Type, awaitedBy: UInt64?, queued isQueued: Bool,
    cancel: @escaping @Sendable () -> Void
  ) {
    running[token] = Running(id: id, type: type, awaitedBy: awaitedBy, cancel: cancel)
    if let id { lanes[id, default: []].append(token) }
    if isQueued { queued.insert(token) }
  }

  /// Suspends a queued run until every run before it in the lane of `id` has ended.
  ///
  /// - Throws: `CancellationError` at once when the run is cancelled before its turn, so that
  ///   whoever awaits it is resumed without waiting for the runs ahead.
  func waitForTurn(_ token: UInt64, id: AnyHashable) async throws {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        if Task.isCancelled {
          continuation.resume(throwing: CancellationError())
        } else if lanes[id]?.first == token {
          continuation.resume()
        } else {
          turns[token] = continuation
        }
      }
    } onCancel: {
      Task { @MainActor in self.abandonTurn(token) }
    }
    // Cancelled as the turn came: the effect never starts.
    try Task.checkCancellation()
    queued.remove(token)
  }

  /// Records a finished effect, gives the next queued run of its lane its turn, and tells the
  /// observers.
  func end(_ token: UInt64) {
    queued.remove(token)
    guard let entry = running.removeValue(forKey: token) else { return }
    if let id = entry.id, var lane = lanes[id] {
      lane.removeAll { $0 == token }
      lanes[id] = lane.isEmpty ? nil : lane
      if let next = lane.first, let turn = turns.removeValue(forKey: next) {
        turn.resume()
      }
    }
    for observer in finishObservers.values { observer() }
  }

  /// Cancels the effect run named `token`; it stays registered until its body returns.
  func cancel(_ token: UInt64) {
    running[token]?.cancel()
  }

  /// Cancels every effect, running or queued, whose identifier is `id`.
  ///
  /// - Complexity: O(effects holding `id`).
  func cancel(identifiedBy id: AnyHashable) {
    for token in lanes[id] ?? [] { cancel(token) }
  }

  /// Cancels every running effect.
  ///
  /// - Complexity: O(running effects).
  func cancelAll() {
    for entry in running.values { entry.cancel() }
  }

  /// Calls `observer` each time an effect finishes, until the token is cancelled.
  func observeFinishes(_ observer: @escaping @MainActor () -> Void) -> Subscription {
    let token = makeToken()
    finishObservers[token] = observer
    return Subscription { [weak self] in
      // Cancelling usually happens on the main thread; elsewhere the removal hops there.
      if Thread.isMainThread {
        MainActor.assumeIsolated { self?.finishObservers[token] = nil }
      } else {
        Task { @MainActor in self?.finishObservers[token] = nil }
      }
    }
  }

  /// What each running effect is and what it waits for, oldest first.
  ///
  /// - Complexity: O(running effects × log running effects).
  var snapshot: [RunningEffect] {
    var awaited: [UInt64: [UInt64]] = [:]
    for (token, entry) in running {
      if let parent = entry.awaitedBy, running[parent] != nil {
        awaited[parent, default: []].append(token)
      }
    }
    return running.keys.sorted().compactMap { token in
      guard let entry = running[token] else { return nil }
      let isQueued = queued.contains(token)
      var ahead: [UInt64] = []
      if isQueued, let id = entry.id, let lane = lanes[id], let index = lane.firstIndex(of: token) {
        ahead = Array(lane[..<index])
      }
      return RunningEffect(
        token: token, name: String(describing: entry.type), awaits: (awaited[token] ?? []).sorted(),
        queuedBehind: ahead)
    }
  }

  /// Resumes a queued run cancelled before its turn.
  private func abandonTurn(_ token: UInt64) {
    turns.removeValue(forKey: token)?.resume(throwing: CancellationError())
  }
}

/// A running (or queued) effect as test tools see it.
package struct RunningEffect: Sendable, Hashable {
  /// The run's token, unique within its store.
  package let token: UInt64
  /// The effect's type name.
  package let name: String
  /// The runs this one's own task awaits (nested dispatches), oldest first.
  package let awaits: [UInt64]
  /// For a run queued by ``CancellationPolicy/enqueue``, the runs that must end before its
  /// turn; empty otherwise.
  package let queuedBehind: [UInt64]
}

/// Which effect run the current task belongs to, so that test tools (a test clock) can tell which
/// effect is asleep, and a nested dispatch which effect awaits it.
package struct EffectRunID: Sendable, Hashable {
  /// The registry (one per store) the run is recorded in.
  package let registry: ObjectIdentifier
  /// The run's token in that registry.
  package let token: UInt64
  /// A hash of the run's own task: a child task (`async let`) inherits the identity but is
  /// another task, and does not block the run by awaiting.
  let task: Int

  /// The run the current task executes, if it is an effect's.
  @TaskLocal package static var current: EffectRunID?

  /// A hash of the current task, which ``task`` holds for the run's own task.
  static var taskHash: Int {
    withUnsafeCurrentTask { $0?.hashValue } ?? 0
  }

  /// The run of the current task if the current task is that run's own task: not a child task
  /// (`async let`, a task group) nor a `Task {}` started inside the effect, which inherit the
  /// identity but whose waits do not stop the effect itself.
  package static var currentTaskRun: EffectRunID? {
    guard let current, taskHash == current.task else {
      return nil
    }
    return current
  }
}
