/// The one path every side effect takes, whichever of the two protocols it conforms to and
/// however it was dispatched. Read top to bottom:
///
/// 1. `Store.sendThroughInterceptors` (_InterceptOutcome.swift) takes the effect through the
///    store's interceptor chain, queued behind any dispatch in progress.
/// 2. `awaitEffect` or `launchEffect` below turns the outcome into a started task or a
///    "did not run" answer.
/// 3. `startEffect` applies the cancellation policy, registers the run (its ``EffectTask``) in
///    the ``_EffectRegistry`` and starts the task off the main actor, with the run's
///    `DispatchCause` and identity bound; what the body dispatches comes back through
///    ``SideEffectContext``, and the run leaves the registry on the main actor.
///
/// A ``SideEffect`` is a ``ReturningSideEffect`` whose value is `Void`; the two differ only in
/// what a caller gets when the effect does not run, which the `ifNotRun` argument says.
extension Store {
  /// What a caller gets when an effect did not run: a value (a plain effect just returns) or the
  /// error (a returning effect has no value to give).
  @usableFromInline typealias _NotRunAnswer<Value: Sendable> =
    @Sendable (EffectNotRunError) -> Result<Value, any Error>

  /// Runs `effect` through the interceptors and awaits it; cancelling the awaiting task cancels
  /// the effect.
  ///
  /// The start is on the main actor; the wait is where the caller runs, so that a caller off
  /// the main actor is resumed there when the effect ends, without a turn of the main actor.
  @inlinable
  nonisolated(nonsending) func awaitEffect<E: ReturningSideEffect>(
    _ effect: E, site: DispatchSite? = nil, ifNotRun: _NotRunAnswer<E.ReturnValue>
  ) async throws -> E.ReturnValue where E.StateType == S, E.Dependencies == Dependencies {
    switch await startAwaitedEffect(effect, site: site, ifNotRun: ifNotRun) {
    case .notRun(let answer):
      return try answer.get()
    case .running(let run):
      return try await withTaskCancellationHandler {
        try await run.value
      } onCancel: {
        run.cancelRun()
      }
    }
  }

  /// What became of an awaited effect sent to the store.
  @usableFromInline
  enum _AwaitedStart<Value: Sendable>: Sendable {
    case running(EffectTask<Value>)
    case notRun(Result<Value, any Error>)
  }

  /// Sends `effect` through the interceptors and starts it, naming the effect run whose own
  /// task awaits it.
  ///
  /// `async` although it starts the effect without suspending: a caller off the main actor
  /// then hops here by itself.
  @inlinable
  func startAwaitedEffect<E: ReturningSideEffect>(
    _ effect: E, site: DispatchSite?, ifNotRun: _NotRunAnswer<E.ReturnValue>
  ) async -> _AwaitedStart<E.ReturnValue> where E.StateType == S, E.Dependencies == Dependencies {
    let final: E
    // As for a launch, an effect that nothing can drop, replace or delay starts at once.
    let outcome =
      _reachesEndAtOnce && !(effect is any StateUpdater)
      ? .reached(effect) : await _passThroughInterceptors(effect)
    switch outcome {
    case .reached(let reached): final = reached
    case .dropped:
      return .notRun(ifNotRun(EffectNotRunError(effect, .droppedByInterceptor)))
    case .replaced(let other):
      return .notRun(ifNotRun(EffectNotRunError(effect, .replacedByInterceptor(with: other))))
    }
    let awaiter = _EffectRunID._currentTaskRun.map(\._token)
    guard let run = startEffect(final, reportsErrors: false, awaitedBy: awaiter, site: site)
    else {
      return .notRun(ifNotRun(EffectNotRunError(effect, .alreadyInFlight)))
    }
    return .running(run)
  }

  /// Sends `effect` through the interceptors and starts it without awaiting it; errors go to
  /// `Store.onUnhandledError` and to whoever awaits the handle.
  ///
  /// Inlinable, as the start it leads to: a launch is specialised for the effect's type where
  /// the application launches it, instead of looking up generic metadata at run time.
  @inlinable
  func launchEffect<E: ReturningSideEffect>(
    _ effect: E, site: DispatchSite? = nil, ifNotRun: @escaping _NotRunAnswer<E.ReturnValue>
  ) -> EffectTask<E.ReturnValue> where E.StateType == S, E.Dependencies == Dependencies {
    // Nothing can drop, replace or delay it (see `sendThroughInterceptors`): start it at once,
    // and let its run be its handle.
    if _reachesEndAtOnce, !(effect is any StateUpdater) {
      return startEffect(effect, reportsErrors: true, awaitedBy: nil, site: site)
        ?? EffectTask(notRun: ifNotRun(EffectNotRunError(effect, .alreadyInFlight)))
    }
    return _launchThroughInterceptors(effect, site: site, ifNotRun: ifNotRun)
  }

  /// Launches `effect` through the interceptors: queued behind a dispatch in progress, or
  /// watched by interceptors that may drop or replace it.
  @usableFromInline
  func _launchThroughInterceptors<E: ReturningSideEffect>(
    _ effect: E, site: DispatchSite?, ifNotRun: @escaping _NotRunAnswer<E.ReturnValue>
  ) -> EffectTask<E.ReturnValue> where E.StateType == S, E.Dependencies == Dependencies {
    let handle = EffectTask<E.ReturnValue>()
    // Read here, in the launching task: the start comes later, from the interceptors' turn.
    let parent = DispatchCause.current
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
      let started = DispatchCause.$current.withValue(parent) {
        self.startEffect(final, reportsErrors: true, awaitedBy: nil, site: site, as: handle)
      }
      if started == nil {
        handle.attach(.notRun(ifNotRun(EffectNotRunError(effect, .alreadyInFlight))))
      }
    }
    return handle
  }

  /// Starts `effect`, which has already been through the interceptors, and returns its run:
  /// the handle that awaits or cancels it, and its entry in the ``_EffectRegistry``.
  ///
  /// Synchronous, so that the effect counts as running (and its cancellation identifier takes
  /// effect) before the caller's next statement. Returns `nil` when the effect's policy keeps
  /// another effect with the same identifier in flight.
  ///
  /// The run's task starts off the main actor, with the run's cause and identity copied into it
  /// from bindings made here: starting it on the main actor to bind them there would cost each
  /// effect one more turn of the main actor than a plain task takes.
  ///
  /// - Parameters:
  ///   - effect: The effect to run.
  ///   - reportsErrors: Whether a thrown error (other than a cancellation) goes to
  ///     `Store.onUnhandledError`; true when nobody awaits the effect.
  ///   - awaitedBy: The effect run whose own task awaits this one, if any.
  ///   - site: Where the effect was dispatched from, for its cause.
  ///   - handle: The handle a launch already returned, if any; a fresh one otherwise.
  @discardableResult @inlinable
  func startEffect<E: ReturningSideEffect>(
    _ effect: E, reportsErrors: Bool, awaitedBy: UInt64?, site: DispatchSite? = nil,
    as handle: EffectTask<E.ReturnValue>? = nil
  ) -> EffectTask<E.ReturnValue>?
  where E.StateType == S, E.Dependencies == Dependencies {
    let registry = _EffectRegistry.of(self)
    let id = effect.cancellationID.map { AnyHashable($0) }
    var waitsForTurn = false
    if let id, registry._isHeld(id) {
      switch effect.cancellationPolicy {
      case .cancelInFlight: registry._cancel(identifiedBy: id, reason: .newer(E.self))
      case .keepInFlight:
        _logEffectKeptOut(of: E.self, effect: { effect }, id: id, site: site, in: registry)
        return nil
      case .enqueue: waitsForTurn = true
      }
    }
    let queued = waitsForTurn
    let run = handle ?? EffectTask<E.ReturnValue>()
    let token = registry._begin(
      run, id: id, type: E.self, awaitedBy: awaitedBy, queued: queued)
    let cause = DispatchCause(
      Self._causeName(registry._name(of: E.self)), site: site, parent: DispatchCause.current)
    let logged = _logEffectStart(
      run, of: E.self, effect: { effect }, id: id, cause: cause, in: registry)
    let identity = _EffectRunID(
      registry: ObjectIdentifier(registry), token: token, run: run, logged: logged)
    let context = SideEffectContext(store: self)
    let task = _EffectRunID._binding(identity, cause: cause) {
      Task { @concurrent in
        run._recordOwnTask()
        // An effect whose last step was a dispatch returns on the main actor, and `endEffect`,
        // itself async on the main actor, then ends it there. Nothing may come between the
        // two awaits: any code there (unspecialised generic code calls the runtime) would
        // hop back off the main actor first, and the end would hop onto it again.
        do {
          return await self.endEffect(
            run, in: registry,
            returning: try await _EffectExecution.run(
              effect, in: context, after: queued ? registry : nil, run: run))
        } catch {
          throw await self.endEffect(
            run, in: registry, failure: error, reportingErrorsOf: reportsErrors ? effect : nil)
        }
      }
    }
    run.attach(.running(task), token: token)
    return run
  }

  /// Tells the store's effect log, if one is attached, that `run` started, and returns the run
  /// as the log follows it; `nil` when nothing logs it, after one dictionary slot read.
  ///
  /// `effect` gives the effect only when a log is attached: the closure does not escape, so
  /// passing it costs no allocation, where boxing the effect itself might.
  @usableFromInline
  func _logEffectStart(
    _ run: any _EffectRun, of type: any ReturningSideEffect.Type,
    effect: () -> any Dispatchable, id: AnyHashable?, cause: DispatchCause,
    in registry: _EffectRegistry
  ) -> LoggedEffect? {
    guard let log = effectLog else { return nil }
    return registry.logStart(
      of: run, type: type, effect: effect(), id: id, cause: cause, log: log)
  }

  /// Tells the store's effect log, if one is attached, that an effect of `type` did not start
  /// because another with its identifier `id` runs (``CancellationPolicy/keepInFlight``): a
  /// start and at once an end, cancelled by the effect in flight.
  @usableFromInline
  func _logEffectKeptOut(
    of type: any ReturningSideEffect.Type, effect: () -> any Dispatchable, id: AnyHashable,
    site: DispatchSite?, in registry: _EffectRegistry
  ) {
    guard let log = effectLog else { return }
    let cause = DispatchCause(
      Self._causeName(registry._name(of: type)), site: site, parent: DispatchCause.current)
    registry.logKeptOut(type: type, effect: effect(), id: id, cause: cause, log: log)
  }

  /// Takes a run that returned `value` out of the registry and hands the value to its task.
  ///
  /// `async` although it never suspends: its caller, off the main actor, then hops onto the
  /// main actor only if it is not there already.
  @inlinable
  func endEffect<R>(_ run: any _EffectRun, in registry: _EffectRegistry, returning value: R) async
    -> R
  {
    registry._end(run)
    return value
  }

  /// Takes a run that threw `error` out of the registry, reports the error when nobody awaits
  /// the effect (`effect` is then the effect), and hands the error to its task.
  @usableFromInline
  func endEffect(
    _ run: any _EffectRun, in registry: _EffectRegistry, failure error: any Error,
    reportingErrorsOf effect: (any ReturningSideEffect)?
  ) async -> any Error {
    registry._end(run, failure: error)
    if let effect, !(error is CancellationError) {
      onUnhandledError(error, effect)
    }
    return error
  }

  /// The cause recorded with the updaters of an effect named `name`: its name, after the
  /// cause of whatever started it (`"Outer › Inner"`).
  @usableFromInline
  static func _causeName(_ name: String) -> String {
    guard let outer = DispatchCause.current else { return name }
    return "\(outer.name) › \(name)"
  }
}

extension Store {
  /// Awaits the trip of `effect` through the interceptors.
  @usableFromInline
  func _passThroughInterceptors<E: ReturningSideEffect>(_ effect: E) async -> _InterceptOutcome<E> {
    await withCheckedContinuation { continuation in
      sendThroughInterceptors(effect, expecting: { $0 as? E }) { outcome in
        continuation.resume(returning: outcome)
      }
    }
  }
}
