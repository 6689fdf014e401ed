import StateStore
import Synchronization

/// One effect run as its store's ``_EffectRegistry`` keeps it: the run's ``EffectTask``, which
/// holds the registry's entry itself, so that the registry needs no table of its own for a run
/// and a run costs one object besides its task.
@usableFromInline
protocol _EffectRun: AnyObject, Sendable {
  /// The registry's record of the run.
  @MainActor var entry: _EffectRunEntry { get set }
  /// Cancels the run's task, leaving the handle's own ``EffectTask/isCancelled`` as it is.
  func cancelRun()
  /// The hash of the run's own task, once the task has started; 0 before.
  var ownTaskHash: Int { get }
  /// Whether the run's task has been cancelled, by anyone.
  var isTaskCancelled: Bool { get }
  /// Whether the run's handle was cancelled (`EffectTask.cancel()`).
  var isHandleCancelled: Bool { get }
}

/// Why the registry cancelled a run, kept only for a run an `EffectLog` follows.
@usableFromInline
enum _CancelReason {
  /// A newer effect of this type, with the run's identifier and ``CancellationPolicy/cancelInFlight``.
  case newer(any ReturningSideEffect.Type)
  /// `cancelEffects(identifiedBy:)`.
  case identifier
  /// `cancelAllEffects()`.
  case all
}

/// What the registry knows of one run: which it is, what it waits for, and its place among the
/// running effects (a list linked through the runs, oldest first, so that starting and ending
/// a run costs no hashing).
@usableFromInline
struct _EffectRunEntry {
  /// The run's token; 0 until it starts.
  var token: UInt64 = 0
  var id: AnyHashable?
  /// The effect's type, named only when a test tool asks (naming costs more than a start).
  var type: Any.Type = Void.self
  /// The effect whose own task awaits this one (a nested `context.dispatch`), if any.
  var awaitedBy: UInt64?
  /// Whether the run is queued (``CancellationPolicy/enqueue``) and has not had its turn yet.
  var isQueued = false
  /// The queued run's suspension until its turn.
  var turn: CheckedContinuation<Void, any Error>?
  var isRunning = false
  var older: (any _EffectRun)?
  var newer: (any _EffectRun)?
}

/// The running effects of one store: what cancels them, which identifier each one holds, whose
/// turn it is among effects queued under one identifier, and who wants to hear when one finishes.
///
/// Kept in the store's extension storage, so it lives and dies with the store.
@MainActor @usableFromInline
final class _EffectRegistry {
  private var nextToken: UInt64 = 0
  /// The running effects, oldest first, linked through their entries.
  private var oldest: (any _EffectRun)?
  private var newest: (any _EffectRun)?
  /// How many effects are running, queued ones included.
  private(set) var count = 0
  /// Per identifier, the runs holding it, in dispatch order: the oldest first.
  private var lanes: [AnyHashable: [any _EffectRun]] = [:]
  /// Who hears each change of a run: a start, a turn, an end.
  ///
  /// Locked, so that a token
  /// cancelled on any thread removes its observer at once, without asking which executor runs.
  private nonisolated let changeObservers = _SpinLocked<[UInt64: @MainActor @Sendable () -> Void]>(
    [:])
  /// Whether `changeObservers` may be non-empty: read on each start and end instead of the lock.
  private nonisolated let isObserved = Atomic<Bool>(false)
  /// The names of the effect types started so far: a type's name is demangled at run time,
  /// which costs more than the rest of an effect's start.
  private var typeNames: [ObjectIdentifier: String] = [:]
  /// The runs an `EffectLog` follows, by token, with their number there
  /// (see ``logStart(of:type:effect:id:cause:log:)``); empty while nothing logs effects.
  private var loggedRuns: [UInt64: LoggedEffect] = [:]
  /// Why the registry cancelled a logged run, by token.
  private var cancelReasons: [UInt64: _CancelReason] = [:]

  /// The registry of `store`, created on first use.
  @inlinable
  static func of<S, D>(_ store: Store<S, D>) -> _EffectRegistry {
    let key = ObjectIdentifier(_EffectRegistry.self)
    if let registry = store._extensionStorage[key] as? _EffectRegistry { return registry }
    return _make(in: &store._extensionStorage, at: key)
  }

  /// A new registry, stored in a store's extension storage at `key`.
  @usableFromInline
  static func _make(in storage: inout [ObjectIdentifier: AnyObject], at key: ObjectIdentifier)
    -> _EffectRegistry
  {
    let registry = _EffectRegistry()
    storage[key] = registry
    return registry
  }

  /// The name of the effect type `type`, as its updaters' cause records it.
  @usableFromInline
  func _name(of type: any ReturningSideEffect.Type) -> String {
    let key = ObjectIdentifier(type)
    if let name = typeNames[key] { return name }
    let name = String(describing: type)
    typeNames[key] = name
    return name
  }

  /// A fresh token naming one run or one observer.
  private func makeToken() -> UInt64 {
    nextToken &+= 1
    return nextToken
  }

  /// Whether any effect with identifier `id` is running or queued.
  @usableFromInline
  func _isHeld(_ id: AnyHashable) -> Bool {
    lanes[id]?.isEmpty == false
  }

  /// Records a started effect and returns its token; a queued one (`queued`) waits in
  /// ``_waitForTurn(_:)``.
  @usableFromInline
  func _begin(
    _ run: any _EffectRun, id: AnyHashable?, type: Any.Type, awaitedBy: UInt64?,
    queued isQueued: Bool
  ) -> UInt64 {
    let token = makeToken()
    // One write through the run's accessor, not one per field.
    run.entry = _EffectRunEntry(
      token: token, id: id, type: type, awaitedBy: awaitedBy, isQueued: isQueued, turn: nil,
      isRunning: true, older: newest, newer: nil)
    if let newest { newest.entry.newer = run } else { oldest = run }
    newest = run
    count += 1
    if let id { lanes[id, default: []].append(run) }
    // A start changes what its awaiter waits for, and a queued one waits behind others: a test
    // tool waiting for every effect to block must hear it, or it misses the last change.
    notifyChange()
    return token
  }

  /// Suspends a queued run until every run before it in its lane has ended.
  ///
  /// - Throws: `CancellationError` at once when the run is cancelled before its turn, so that
  ///   whoever awaits it is resumed without waiting for the runs ahead.
  @usableFromInline
  func _waitForTurn(_ run: any _EffectRun) async throws {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        if Task.isCancelled {
          continuation.resume(throwing: CancellationError())
        } else if let id = run.entry.id, lanes[id]?.first === run {
          continuation.resume()
        } else {
          run.entry.turn = continuation
        }
      }
    } onCancel: {
      Task { @MainActor in self.abandonTurn(run) }
    }
    // Cancelled as the turn came: the effect never starts.
    try Task.checkCancellation()
    run.entry.isQueued = false
    notifyChange()
  }

  /// Records a finished effect (that threw `failure`, if any), gives the next queued run of its
  /// lane its turn, and tells the observers and the log that follows it.
  @usableFromInline
  func _end(_ run: any _EffectRun, failure: (any Error)? = nil) {
    // Read once: each read through the run's accessor copies the whole entry.
    let entry = run.entry
    guard entry.isRunning else { return }
    if !loggedRuns.isEmpty { logEnd(of: run, token: entry.token, failure: failure) }
    if let older = entry.older { older.entry.newer = entry.newer } else { oldest = entry.newer }
    if let newer = entry.newer { newer.entry.older = entry.older } else { newest = entry.older }
    run.entry = _EffectRunEntry()
    count -= 1
    if let id = entry.id, var lane = lanes[id] {
      lane.removeAll { $0 === run }
      lanes[id] = lane.isEmpty ? nil : lane
      if let next = lane.first, let turn = next.entry.turn {
        next.entry.turn = nil
        turn.resume()
      }
    }
    notifyChange()
  }

  /// Tells the change observers that a run started, got its turn or ended.
  @inline(__always)
  private func notifyChange() {
    guard isObserved.load(ordering: .relaxed) else { return }
    for observer in changeObservers.withLock({ Array($0.values) }) { observer() }
  }

  /// Cancels every effect, running or queued, whose identifier is `id`.
  ///
  /// - Complexity: O(effects holding `id`).
  @usableFromInline
  func _cancel(identifiedBy id: AnyHashable, reason: _CancelReason = .identifier) {
    for run in lanes[id] ?? [] { cancel(run, reason: reason) }
  }

  /// Cancels every running effect.
  ///
  /// - Complexity: O(running effects).
  func cancelAll() {
    for run in runs { cancel(run, reason: .all) }
  }

  /// Cancels `run`, keeping why for its log.
  private func cancel(_ run: any _EffectRun, reason: _CancelReason) {
    if !loggedRuns.isEmpty {
      let token = run.entry.token
      if loggedRuns[token] != nil, cancelReasons[token] == nil { cancelReasons[token] = reason }
    }
    run.cancelRun()
  }

  // MARK: - The log

  /// Tells `log` that `run`, of `type`, started, and returns the run as the log follows it;
  /// `nil` when the log ignores it.
  func logStart(
    of run: any _EffectRun, type: any ReturningSideEffect.Type, effect: any Dispatchable,
    id: AnyHashable?, cause: DispatchCause, log: any EffectLog
  ) -> LoggedEffect? {
    let start = EffectLogStart(
      type: _name(of: type), id: id.map { String(describing: $0.base) }, cause: cause,
      parent: Self.parent(in: log), effect: effect)
    guard let number = log.effectStarted(start) else { return nil }
    let logged = LoggedEffect(number: number, log: log)
    loggedRuns[run.entry.token] = logged
    return logged
  }

  /// The number in `log` of the effect the current task runs, if `log` follows it.
  private static func parent(in log: any EffectLog) -> Int? {
    guard let current = LoggedEffect.current, current.log === log else { return nil }
    return current.number
  }

  /// Tells `log` that an effect of `type` with identifier `id` started and was cancelled at
  /// once, kept out by the effect in flight with that identifier.
  func logKeptOut(
    type: any ReturningSideEffect.Type, effect: any Dispatchable, id: AnyHashable,
    cause: DispatchCause, log: any EffectLog
  ) {
    let start = EffectLogStart(
      type: _name(of: type), id: String(describing: id.base), cause: cause,
      parent: Self.parent(in: log), effect: effect)
    guard let number = log.effectStarted(start) else { return }
    let holder = lanes[id]?.first.map { _name(ofRun: $0) } ?? "another effect"
    log.effectEnded(number, outcome: .cancelled(by: "\(holder) in flight (keepInFlight)"))
  }

  /// The type name of the effect `run` runs.
  private func _name(ofRun run: any _EffectRun) -> String {
    let type = run.entry.type
    if let effectType = type as? any ReturningSideEffect.Type { return _name(of: effectType) }
    return String(describing: type)
  }

  /// Tells the log that follows `run`, if one does, how it ended.
  private func logEnd(of run: any _EffectRun, token: UInt64, failure: (any Error)?) {
    guard let logged = loggedRuns.removeValue(forKey: token) else { return }
    let outcome: EffectLogOutcome
    if let reason = cancelReasons.removeValue(forKey: token) {
      outcome = .cancelled(by: describe(reason))
    } else if run.isTaskCancelled || failure is CancellationError {
      outcome = .cancelled(
        by: run.isHandleCancelled ? "its EffectTask's cancel()" : "the cancellation of its awaiter")
    } else if let failure {
      outcome = .failed(String(describing: failure))
    } else {
      outcome = .finished
    }
    logged.log.effectEnded(logged.number, outcome: outcome)
  }

  /// What cancelled a run, as its log says it.
  private func describe(_ reason: _CancelReason) -> String {
    switch reason {
    case .newer(let type): "a newer \(_name(of: type)) (cancelInFlight)"
    case .identifier: "cancelEffects(identifiedBy:)"
    case .all: "cancelAllEffects()"
    }
  }

  /// The running effects, oldest first.
  ///
  /// - Complexity: O(running effects).
  private var runs: [any _EffectRun] {
    var runs: [any _EffectRun] = []
    runs.reserveCapacity(count)
    var next = oldest
    while let run = next {
      runs.append(run)
      next = run.entry.newer
    }
    return runs
  }

  /// Calls `observer` each time an effect starts (queued or not), gets its turn in its queue, or
  /// finishes, until the token is cancelled.
  func observeChanges(_ observer: @escaping @MainActor @Sendable () -> Void) -> Subscription {
    let token = makeToken()
    changeObservers.withLock { $0[token] = observer }
    isObserved.store(true, ordering: .relaxed)
    return Subscription { [weak self] in
      _ = self?.changeObservers.withLock { $0.removeValue(forKey: token) }
    }
  }

  /// What each running effect is and what it waits for, oldest first.
  ///
  /// - Complexity: O(running effects).
  var snapshot: [RunningEffect] {
    let runs = runs
    let running = Set(runs.map(\.entry.token))
    var awaited: [UInt64: [UInt64]] = [:]
    for run in runs {
      if let parent = run.entry.awaitedBy, running.contains(parent) {
        awaited[parent, default: []].append(run.entry.token)
      }
    }
    return runs.map { run in
      let entry = run.entry
      var ahead: [UInt64] = []
      if entry.isQueued, let id = entry.id, let lane = lanes[id],
        let index = lane.firstIndex(where: { $0 === run })
      {
        ahead = lane[..<index].map(\.entry.token)
      }
      return RunningEffect(
        token: entry.token, run: ObjectIdentifier(run), name: String(describing: entry.type),
        awaits: (awaited[entry.token] ?? []).sorted(), queuedBehind: ahead)
    }
  }

  /// Resumes a queued run cancelled before its turn.
  private func abandonTurn(_ run: any _EffectRun) {
    guard let turn = run.entry.turn else { return }
    run.entry.turn = nil
    turn.resume(throwing: CancellationError())
  }
}

/// A running (or queued) effect as test tools see it.
package struct RunningEffect: Sendable, Hashable {
  /// The run's token, unique within its store.
  package let token: UInt64
  /// The run's handle, as ``EffectAwaits`` names what a task awaits.
  package let run: ObjectIdentifier
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
@usableFromInline
package struct _EffectRunID: Sendable, Hashable {
  /// The registry (one per store) the run is recorded in.
  package let registry: ObjectIdentifier
  /// The run's token in that registry.
  @usableFromInline package let _token: UInt64
  /// The run, which knows its own task: a child task (`async let`) inherits the identity but
  /// is another task, and does not block the run by awaiting.
  let run: any _EffectRun
  /// The run as its store's `EffectLog` follows it; `nil` when none does.
  @usableFromInline let _logged: LoggedEffect?

  @usableFromInline
  init(
    registry: ObjectIdentifier, token: UInt64, run: any _EffectRun, logged: LoggedEffect? = nil
  ) {
    self.registry = registry
    self._token = token
    self.run = run
    self._logged = logged
  }

  /// The run the current task executes, if it is an effect's.
  @TaskLocal package static var current: _EffectRunID?

  /// Runs `body` with `identity` as the current run and `cause` as the current cause: a task
  /// that `body` creates starts with both.
  @usableFromInline
  static func _binding<R>(_ identity: _EffectRunID, cause: DispatchCause, _ body: () -> R) -> R {
    guard let logged = identity._logged else {
      return $current.withValue(identity) {
        DispatchCause.$current.withValue(cause, operation: body)
      }
    }
    return $current.withValue(identity) {
      DispatchCause.$current.withValue(cause) {
        LoggedEffect.$current.withValue(logged, operation: body)
      }
    }
  }

  /// A hash of the current task, which the run records for its own task.
  static var taskHash: Int {
    withUnsafeCurrentTask { $0?.hashValue } ?? 0
  }

  /// The run of the current task if the current task is that run's own task: not a child task
  /// (`async let`, a task group) nor a `Task {}` started inside the effect, which inherit the
  /// identity but whose waits do not stop the effect itself.
  @usableFromInline
  package static var _currentTaskRun: _EffectRunID? {
    guard let current, taskHash == current.run.ownTaskHash else {
      return nil
    }
    return current
  }

  @usableFromInline
  package static func == (lhs: _EffectRunID, rhs: _EffectRunID) -> Bool {
    lhs.registry == rhs.registry && lhs._token == rhs._token
  }

  @usableFromInline
  package func hash(into hasher: inout Hasher) {
    hasher.combine(registry)
    hasher.combine(_token)
  }
}
