/// The one path every side effect takes, whichever of the two protocols it conforms to and
/// however it was dispatched. Read top to bottom:
///
/// 1. `Store.sendThroughInterceptors` (InterceptOutcome.swift) takes the effect through the
///    store's interceptor chain, queued behind any dispatch in progress.
/// 2. `awaitEffect` or `launchEffect` below turns the outcome into a started task or a
///    "did not run" answer.
/// 3. `startEffect` applies the cancellation policy, registers the run in the
///    ``EffectRegistry`` and starts the task.
/// 4. The task binds the run's ``DispatchCause`` and identity on the main actor, and
///    `EffectExecution.run` runs the body off it; what the body dispatches comes back through
///    ``SideEffectContext``, and the run leaves the registry on the main actor.
///
/// A ``SideEffect`` is a ``ReturningSideEffect`` whose value is `Void`; the two differ only in
/// what a caller gets when the effect does not run, which the `ifNotRun` argument says.
extension Store {
  /// What a caller gets when an effect did not run: a value (a plain effect just returns) or the
  /// error (a returning effect has no value to give).
  typealias NotRunAnswer<Value: Sendable> =
    @Sendable (EffectNotRunError) -> Result<Value, any Error>

  /// Runs `effect` through the interceptors and awaits it; cancelling the awaiting task cancels
  /// the effect.
  func awaitEffect<E: ReturningSideEffect>(
    _ effect: E, ifNotRun: NotRunAnswer<E.ReturnValue>
  ) async throws -> E.ReturnValue where E.StateType == S, E.Dependencies == Dependencies {
    let final: E
    switch await passThroughInterceptors(effect) {
    case .reached(let reached): final = reached
    case .dropped:
      return try ifNotRun(EffectNotRunError(effect, .droppedByInterceptor)).get()
    case .replaced(let other):
      return try ifNotRun(EffectNotRunError(effect, .replacedByInterceptor(with: other))).get()
    }
    let awaiter = EffectRunID.currentTaskRun.map(\.token)
    guard let task = startEffect(final, reportsErrors: false, awaitedBy: awaiter)?.task else {
      return try ifNotRun(EffectNotRunError(effect, .alreadyInFlight)).get()
    }
    return try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  }

  /// Sends `effect` through the interceptors and starts it without awaiting it; errors go to
  /// `Store.onUnhandledError` and to whoever awaits the handle.
  func launchEffect<E: ReturningSideEffect>(
    _ effect: E, ifNotRun: @escaping NotRunAnswer<E.ReturnValue>
  ) -> EffectTask<E.ReturnValue> where E.StateType == S, E.Dependencies == Dependencies {
    let handle = EffectTask<E.ReturnValue>()
    sendThroughInterceptors(effect, expecting: { $0 as? E }) { [weak self] outcome in
      let final: E
      switch outcome {
      case .reached(let reached): final = reached
      case .dropped:
        handle.attach(.notRun(ifNotRun(EffectNotRunError(effect, .droppedByInterceptor))))
        return
      case .replaced(let other):
        handle.attach(
          .notRun(ifNotRun(EffectNotRunError(effect, .replacedByInterceptor(with: other)))))
        return
      }
      guard let self, !handle.isCancelled else {
        handle.attach(.notRun(ifNotRun(EffectNotRunError(effect, .cancelledBeforeStart))))
        return
      }
      if let started = self.startEffect(final, reportsErrors: true, awaitedBy: nil) {
        handle.attach(.running(started.task), token: started.token)
      } else {
        handle.attach(.notRun(ifNotRun(EffectNotRunError(effect, .alreadyInFlight))))
      }
    }
    return handle
  }

  /// Starts `effect`, which has already been through the interceptors, and returns its task
  /// and the run's token in the ``EffectRegistry``.
  ///
  /// Synchronous, so that the effect counts as running (and its cancellation identifier takes
  /// effect) before the caller's next statement. Returns `nil` when the effect's policy keeps
  /// another effect with the same identifier in flight.
  ///
  /// - Parameters:
  ///   - reportsErrors: Whether a thrown error (other than a cancellation) goes to
  ///     `Store.onUnhandledError`; true when nobody awaits the effect.
  ///   - awaitedBy: The effect run whose own task awaits this one, if any.
  func startEffect<E: ReturningSideEffect>(
    _ effect: E, reportsErrors: Bool, awaitedBy: UInt64?
  ) -> (task: Task<E.ReturnValue, any Error>, token: UInt64)?
  where E.StateType == S, E.Dependencies == Dependencies {
    let registry = EffectRegistry.of(self)
    let id = effect.cancellationID.map { AnyHashable($0) }
    var turn: AnyHashable?
    if let id, registry.isHeld(id) {
      switch effect.cancellationPolicy {
      case .cancelInFlight: registry.cancel(identifiedBy: id)
      case .keepInFlight: return nil
      case .enqueue: turn = id
      }
    }
    let token = registry.makeToken()
    let cause = DispatchCause(Self.causeName(registry.name(of: E.self)))
    let context = SideEffectContext(store: self)
    let registryID = ObjectIdentifier(registry)
    let task = Task {
      let result: Result<E.ReturnValue, any Error>
      do {
        if let turn { try await registry.waitForTurn(token, id: turn) }
        let identity = EffectRunID(registry: registryID, token: token, task: EffectRunID.taskHash)
        // The bindings are made and unmade here, on the main actor, around the hop off it: an
        // effect that ends with a dispatch then returns without hopping back to the global
        // executor only to unbind them, and leaves the registry where it already is.
        result = .success(
          try await EffectRunID.$current.withValue(identity) {
            try await DispatchCause.$current.withValue(cause) {
              try await EffectExecution.run({ try await effect.sideEffect($0) }, in: context)
            }
          })
      } catch {
        result = .failure(error)
      }
      registry.end(token)
      if reportsErrors, case .failure(let error) = result, !(error is CancellationError) {
        onUnhandledError(error, effect)
      }
      return try result.get()
    }
    registry.begin(
      token, id: id, type: E.self, awaitedBy: awaitedBy,
      queued: turn != nil, cancel: { task.cancel() })
    return (task, token)
  }

  /// The cause recorded with the updaters of an effect named `name`: its name, after the
  /// cause of whatever started it (`"Outer › Inner"`).
  static func causeName(_ name: String) -> String {
    guard let outer = DispatchCause.current else { return name }
    return "\(outer.name) › \(name)"
  }
}

/// Where effect bodies run: off the main actor, on the global concurrent executor.
enum EffectExecution {
  /// Runs `body` off the main actor; the caller binds the run's cause and identity.
  @concurrent
  static func run<S, D, R: Sendable>(
    _ body: @Sendable (SideEffectContext<S, D>) async throws -> R,
    in context: SideEffectContext<S, D>
  ) async throws -> R {
    try await body(context)
  }
}

extension EffectNotRunError {
  init(_ effect: some AnySideEffect, _ reason: Reason) {
    self.init(effectType: String(reflecting: type(of: effect)), reason: reason)
  }
}
