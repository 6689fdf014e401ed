extension Store {
  /// Runs `effect` and returns when it has finished.
  ///
  /// The effect goes through the interceptors first, then runs off the main actor, concurrently
  /// with other effects. Cancelling the awaiting task cancels the effect. If an interceptor
  /// drops the effect, or another effect with the same identifier keeps it from running, this
  /// returns without running it.
  ///
  /// From synchronous code, such as a UI event handler, start the effect with `launch(_:)`
  /// instead: the compiler's "'async' call in a function that does not support concurrency"
  /// there means "use `launch`, or `await` the dispatch".
  ///
  /// `fileID` and `line` name the call: the effect's `DispatchCause.site`, recorded with
  /// every updater it dispatches. Leave them to their defaults.
  ///
  /// - Throws: Whatever the effect throws.
  @inlinable
  nonisolated(nonsending) public func dispatch<E: SideEffect>(
    _ effect: E, fileID: String = #fileID, line: Int = #line
  ) async throws
  where E.StateType == S, E.Dependencies == Dependencies {
    try await awaitEffect(
      effect, site: DispatchSite(fileID: fileID, line: line), ifNotRun: { _ in .success(()) })
  }

  /// Runs `effect`, waits for it to finish and returns its value.
  ///
  /// The effect goes through the interceptors first, then runs off the main actor, concurrently
  /// with other effects. Cancelling the awaiting task cancels the effect.
  ///
  /// - Throws: Whatever the effect throws, or ``EffectNotRunError`` if an interceptor dropped or
  ///   replaced it, or if another effect with the same identifier kept it from running.
  /// `fileID` and `line` name the call, as for a plain effect; leave them to their defaults.
  @discardableResult @inlinable
  nonisolated(nonsending) public func dispatch<E: ReturningSideEffect>(
    _ effect: E, fileID: String = #fileID, line: Int = #line
  ) async throws
    -> E.ReturnValue
  where E.StateType == S, E.Dependencies == Dependencies {
    try await awaitEffect(
      effect, site: DispatchSite(fileID: fileID, line: line), ifNotRun: { .failure($0) })
  }

  /// Starts `effect` without waiting for it, from synchronous code such as a UI event handler.
  ///
  /// The effect goes through the interceptors in dispatch order, then runs off the main actor.
  /// Its errors go to `Store.onUnhandledError`; the returned handle cancels it or awaits it.
  ///
  /// ```swift
  /// let search = store.launch(Search(query: text))
  /// search.cancel()
  /// ```
  ///
  /// `fileID` and `line` name the call, the effect's `DispatchCause.site`; leave them to
  /// their defaults.
  @discardableResult @inlinable
  public func launch<E: SideEffect>(_ effect: E, fileID: String = #fileID, line: Int = #line)
    -> EffectTask<Void>
  where E.StateType == S, E.Dependencies == Dependencies {
    launchEffect(
      effect, site: DispatchSite(fileID: fileID, line: line), ifNotRun: { _ in .success(()) })
  }

  /// Starts `effect` without waiting for it; its value can be awaited on the returned handle.
  ///
  /// The effect goes through the interceptors in dispatch order, then runs off the main actor.
  /// Its errors go to `Store.onUnhandledError` and to whoever awaits the handle.
  @discardableResult @inlinable
  public func launch<E: ReturningSideEffect>(
    _ effect: E, fileID: String = #fileID, line: Int = #line
  ) -> EffectTask<E.ReturnValue>
  where E.StateType == S, E.Dependencies == Dependencies {
    launchEffect(
      effect, site: DispatchSite(fileID: fileID, line: line), ifNotRun: { .failure($0) })
  }

  /// Cancels every running effect whose ``ReturningSideEffect/cancellationID`` equals `id`.
  public func cancelEffects(identifiedBy id: some Hashable & Sendable) {
    _EffectRegistry.of(self)._cancel(identifiedBy: AnyHashable(id))
  }

  /// Cancels every running effect of this store.
  ///
  /// - Complexity: O(running effects).
  public func cancelAllEffects() {
    _EffectRegistry.of(self).cancelAll()
  }

  /// Waits until no effect of this store is running or queued, the effects they start
  /// included: what an app awaits before it quits, so that a save in flight reaches the disk.
  ///
  /// ```swift
  /// // Shutting down: let the saves finish.
  /// await store.waitForEffects()
  ///
  /// // Shutting down at once: stop every effect, then wait for them to stop.
  /// store.cancelAllEffects()
  /// await store.waitForEffects()
  /// ```
  ///
  /// It returns at once when nothing runs. An effect ends after its last updater has been
  /// applied, so the state then holds everything the effects dispatched. An effect that never
  /// ends (a loop that ignores its cancellation) keeps the wait going: cancelling the waiting
  /// task ends the wait early, and leaves the effects running.
  ///
  /// In tests, prefer `settled()` from `StateStoreTesting`, which fails instead of waiting for
  /// effects asleep on a `TestClock`.
  ///
  /// - Returns: `true` once no effect runs; `false` when the waiting task was cancelled first.
  @discardableResult
  public func waitForEffects() async -> Bool {
    let registry = _EffectRegistry.of(self)
    while registry.count > 0 {
      guard !Task.isCancelled else { return false }
      await EffectsWaiter.nextChange(of: registry)
    }
    return true
  }

  /// The number of effects of this store that are running now; test tools wait on it.
  package var runningEffectCount: Int {
    _EffectRegistry.of(self).count
  }

  /// What each running (or queued) effect of this store is and what it waits for, oldest
  /// first; test tools explain with it why nothing progresses.
  ///
  /// - Complexity: O(r log r) for r running effects.
  package var runningEffects: [RunningEffect] {
    _EffectRegistry.of(self).snapshot
  }

  /// Names this store's effect runs in an ``_EffectRunID``.
  package var effectRunsID: ObjectIdentifier {
    ObjectIdentifier(_EffectRegistry.of(self))
  }

  /// Calls `observer` on the main actor each time an effect of this store changes state.
  ///
  /// A change is when an effect starts (queued or not, awaited or not), gets its turn in an
  /// `.enqueue` queue, or finishes (after its last updater has been applied). Test tools wait on
  /// this: every change that can make an effect blocked or unblocked is heard.
  package func observeEffectChanges(
    _ observer: @escaping @MainActor @Sendable () -> Void
  ) -> Subscription {
    _EffectRegistry.of(self).observeChanges(observer)
  }
}

/// One wait of ``Store/waitForEffects()`` for the next change of the running effects: a start,
/// a turn or an end, or the waiting task's cancellation.
@MainActor
private final class EffectsWaiter {
  private var continuation: CheckedContinuation<Void, Never>?

  /// Returns after the next change of `registry`'s runs, or when the current task is cancelled.
  static func nextChange(of registry: _EffectRegistry) async {
    let waiter = EffectsWaiter()
    let token = registry.observeChanges { waiter.resume() }
    defer { token.cancel() }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if Task.isCancelled {
          continuation.resume()
        } else {
          waiter.continuation = continuation
        }
      }
    } onCancel: {
      Task { @MainActor in waiter.resume() }
    }
  }

  /// Resumes the wait, once.
  private func resume() {
    continuation.take()?.resume()
  }
}
