extension Store {
  /// Runs `effect` and returns when it has finished.
  ///
  /// The effect goes through the interceptors first, then runs off the main actor, concurrently
  /// with other effects. Cancelling the awaiting task cancels the effect. If an interceptor
  /// drops the effect, or another effect with the same identifier keeps it from running, this
  /// returns without running it.
  ///
  /// - Throws: Whatever the effect throws.
  public func dispatch<E: SideEffect>(_ effect: E) async throws
  where E.StateType == S, E.Dependencies == Dependencies {
    guard case .reached(let final) = await passThroughInterceptors(effect) else { return }
    guard let task = startEffect(final, reportsErrors: false, body: final.sideEffect) else {
      return
    }
    try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  }

  /// Runs `effect`, waits for it to finish and returns its value.
  ///
  /// The effect goes through the interceptors first, then runs off the main actor, concurrently
  /// with other effects. Cancelling the awaiting task cancels the effect.
  ///
  /// - Throws: Whatever the effect throws, or ``EffectNotRunError`` if an interceptor dropped or
  ///   replaced it, or if another effect with the same identifier kept it from running.
  @discardableResult
  public func dispatch<E: ReturningSideEffect>(_ effect: E) async throws -> E.ReturnValue
  where E.StateType == S, E.Dependencies == Dependencies {
    let final: E
    switch await passThroughInterceptors(effect) {
    case .reached(let reached): final = reached
    case .dropped: throw EffectNotRunError(effect, .droppedByInterceptor)
    case .replaced(let other): throw EffectNotRunError(effect, .replacedByInterceptor(with: other))
    }
    guard let task = startEffect(final, reportsErrors: false, body: final.sideEffect) else {
      throw EffectNotRunError(effect, .alreadyInFlight)
    }
    return try await withTaskCancellationHandler {
      try await task.value
    } onCancel: {
      task.cancel()
    }
  }

  /// Starts `effect` without waiting for it, from synchronous code such as a UI event handler.
  ///
  /// The effect goes through the interceptors in dispatch order, then runs off the main actor.
  /// Its errors go to ``Store/onUnhandledError``; the returned handle cancels it or awaits it.
  ///
  /// ```swift
  /// let search = store.launch(Search(query: text))
  /// search.cancel()
  /// ```
  @discardableResult
  public func launch<E: SideEffect>(_ effect: E) -> EffectTask<Void>
  where E.StateType == S, E.Dependencies == Dependencies {
    let handle = EffectTask<Void>()
    sendThroughInterceptors(effect) { [weak self] outcome in
      guard case .reached(let final) = outcome, let self else {
        handle.attach(.notRun(.success(())))
        return
      }
      guard !handle.isCancelled else {
        handle.attach(.notRun(.success(())))
        return
      }
      let task = self.startEffect(final, reportsErrors: true, body: final.sideEffect)
      handle.attach(task.map { .running($0) } ?? .notRun(.success(())))
    }
    return handle
  }

  /// Starts `effect` without waiting for it; its value can be awaited on the returned handle.
  ///
  /// The effect goes through the interceptors in dispatch order, then runs off the main actor.
  /// Its errors go to ``Store/onUnhandledError`` and to whoever awaits the handle.
  @discardableResult
  public func launch<E: ReturningSideEffect>(_ effect: E) -> EffectTask<E.ReturnValue>
  where E.StateType == S, E.Dependencies == Dependencies {
    let handle = EffectTask<E.ReturnValue>()
    sendThroughInterceptors(effect) { [weak self] outcome in
      let final: E
      switch outcome {
      case .reached(let reached): final = reached
      case .dropped:
        handle.attach(.notRun(.failure(EffectNotRunError(effect, .droppedByInterceptor))))
        return
      case .replaced(let other):
        handle.attach(
          .notRun(.failure(EffectNotRunError(effect, .replacedByInterceptor(with: other)))))
        return
      }
      guard let self, !handle.isCancelled else {
        handle.attach(.notRun(.failure(EffectNotRunError(effect, .cancelledBeforeStart))))
        return
      }
      if let task = self.startEffect(final, reportsErrors: true, body: final.sideEffect) {
        handle.attach(.running(task))
      } else {
        handle.attach(.notRun(.failure(EffectNotRunError(effect, .alreadyInFlight))))
      }
    }
    return handle
  }

  /// Cancels every running effect whose ``AnySideEffect/cancellationID`` equals `id`.
  public func cancelEffects(identifiedBy id: some Hashable & Sendable) {
    EffectRegistry.of(self).cancel(identifiedBy: AnyHashable(id))
  }

  /// Cancels every running effect of this store.
  ///
  /// - Complexity: O(running effects).
  public func cancelAllEffects() {
    EffectRegistry.of(self).cancelAll()
  }

  /// The number of effects of this store that are running now.
  @_spi(Extensions) public var runningEffectCount: Int {
    EffectRegistry.of(self).count
  }

  /// Calls `observer` on the main actor each time an effect of this store finishes, after its
  /// last updater has been applied; test tools wait on this.
  @_spi(Extensions) public func observeEffectCompletions(
    _ observer: @escaping @MainActor () -> Void
  ) -> Subscription {
    EffectRegistry.of(self).observeFinishes(observer)
  }

  /// Awaits the trip of `effect` through the interceptors.
  private func passThroughInterceptors<E: AnySideEffect>(_ effect: E) async
    -> InterceptOutcome<E>
  {
    await withCheckedContinuation { continuation in
      sendThroughInterceptors(effect) { outcome in continuation.resume(returning: outcome) }
    }
  }
}

extension EffectNotRunError {
  init(_ effect: some AnySideEffect, _ reason: Reason) {
    self.init(effectType: String(reflecting: type(of: effect)), reason: reason)
  }
}
