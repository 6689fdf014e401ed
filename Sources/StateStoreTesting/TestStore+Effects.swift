import ActionLog
import SideEffects
import Testing

extension TestStore {
  /// Starts `effect` without waiting for it; assert its updaters with ``receive(_:assert:sourceLocation:)-(U.Type,_,_)``.
  ///
  /// - Returns: The effect's handle, to cancel it or await it.
  @discardableResult
  public func send<E: SideEffect>(
    _ effect: E, sourceLocation: SourceLocation = #_sourceLocation
  ) async -> EffectTask<Void> where E.StateType == S, E.Dependencies == Dependencies {
    start(
      E.self, at: sourceLocation
    ) { store.launch(effect) }
  }

  /// Starts a returning `effect` without waiting for it; its value can be awaited on the handle.
  @discardableResult
  public func send<E: ReturningSideEffect>(
    _ effect: E, sourceLocation: SourceLocation = #_sourceLocation
  ) async -> EffectTask<E.ReturnValue>
  where E.StateType == S, E.Dependencies == Dependencies {
    start(
      E.self, at: sourceLocation
    ) { store.launch(effect) }
  }

  /// The one body of both `send` overloads for effects: checks nothing is pending, launches.
  private func start<E, Value>(
    _ type: E.Type, at location: SourceLocation, launch: () -> EffectTask<Value>
  ) -> EffectTask<Value> {
    clock?.noteDriver()
    checkNothingPending(before: "send(\(E.self))", at: location)
    let handle = launch()
    nextSendID &+= 1
    let id = nextSendID
    runningSends[id] = RunningSend(
      name: "\(E.self)", location: location, token: { [handle] in handle.token })
    updateLedger()
    Task { [weak self] in
      await handle.finish()
      self?.runningSends[id] = nil
      self?.updateLedger()
    }
    return handle
  }

  /// Asserts that the next updater an effect dispatched is a `U`, and how it changed the state.
  ///
  /// Waits until an updater arrives or every effect has finished; it never waits on real time.
  /// In non-exhaustive mode, updaters of other types are skipped.
  public func receive<U: StateUpdater>(
    _ type: U.Type,
    assert updateStateToExpectedResult: ((inout S) throws -> Void)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async where U.StateType == S {
    await receive(
      "\(U.self)", matching: { $0 is U }, assert: updateStateToExpectedResult, at: sourceLocation)
  }

  /// Asserts that the next updater an effect dispatched equals `updater`, and how it changed the
  /// state.
  public func receive<U: StateUpdater & Equatable>(
    _ updater: U,
    assert updateStateToExpectedResult: ((inout S) throws -> Void)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async where U.StateType == S {
    await receive(
      "\(updater)", matching: { ($0 as? U) == updater }, assert: updateStateToExpectedResult,
      at: sourceLocation,
      describeMismatch: { received in
        guard let received = received as? U else { return nil }
        let lines = StateDiff.lines(from: updater, to: received)
        return
          (["Received \(U.self) with other values (expected → received):"]
          + lines.map { "  " + $0 }).joined(separator: "\n")
      })
  }

  /// Asserts that the next updater an effect dispatched satisfies `predicate`, and how it
  /// changed the state.
  public func receive(
    where predicate: (any StateUpdater<S>) -> Bool,
    assert updateStateToExpectedResult: ((inout S) throws -> Void)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    await receive(
      "an updater matching the predicate", matching: predicate,
      assert: updateStateToExpectedResult, at: sourceLocation)
  }

  /// Waits until every running effect has finished.
  ///
  /// Effects that wait on a ``TestClock`` finish only when the test advances it: when every
  /// running effect is asleep on the store's ``clock``, `finish` fails at once, naming each one
  /// and its deadline, and cancels them. A wait on anything else fails after ``timeout``.
  public func finish(
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    clock?.noteDriver()
    while store.runningEffectCount > 0 {
      guard await awaitProgress("finish()", at: sourceLocation) else {
        await abandonRunningEffects()
        return
      }
    }
    updateLedger()
    reportUnreplayedValues(at: sourceLocation)
  }

  /// Feeds the effects this store runs the values a recorded session gave them: each
  /// `context.recorded { … }` of an effect returns what the log recorded for it, with no
  /// network and no clock, so that `receive` sees what the effect dispatched then.
  ///
  /// ```swift
  /// let store = TestStore(initialState: AppState(), dependencies: .offline)
  /// store.replayEffects(try RecordedEffects(log: recordedData))
  /// await store.send(Search(query: "milk"))
  /// await store.receive(SetResults.self) { $0.results = ["milk"] }  // the recorded results
  /// await store.finish()
  /// ```
  ///
  /// An effect that asks for a value the session did not record throws
  /// `EffectReplayError`, which fails the test at the store's creation (or reaches whoever
  /// awaits the effect), naming the effect and the entry it started after. In exhaustive mode,
  /// ``finish(sourceLocation:)`` fails when recorded values were never asked for.
  public func replayEffects(_ effects: RecordedEffects) {
    replayedEffects = effects
    reportedUnreplayedValues = false
    effects.replay(into: store)
  }

  /// Fails the test once for each recorded effect whose values the replay left unasked for.
  private func reportUnreplayedValues(at location: SourceLocation) {
    guard exhaustivity == .on, !reportedUnreplayedValues, let replayedEffects else { return }
    reportedUnreplayedValues = true
    for error in replayedEffects.unreplayedValues {
      Issue.record("\(error)", sourceLocation: location)
    }
  }

  private func receive(
    _ expectation: String, matching predicate: (any StateUpdater<S>) -> Bool,
    assert updateStateToExpectedResult: ((inout S) throws -> Void)?, at location: SourceLocation,
    describeMismatch: (any StateUpdater<S>) -> String? = { _ in nil }
  ) async {
    clock?.noteDriver()
    while true {
      while let next = received.first {
        received.removeFirst()
        updateLedger()
        let name = "\(Swift.type(of: next.updater))"
        if predicate(next.updater) {
          assertChange(
            "receive(\(name))", from: next.old, to: next.new,
            expected: updateStateToExpectedResult, at: location)
          return
        }
        if let mismatch = describeMismatch(next.updater) {
          Issue.record(Comment(rawValue: mismatch), sourceLocation: location)
          return
        }
        if exhaustivity == .on {
          Issue.record(
            "Expected to receive \(expectation), but received \(name).",
            sourceLocation: location)
          return
        }
      }
      if store.runningEffectCount == 0 {
        Issue.record(
          "Expected to receive \(expectation), but effects finished without dispatching it.",
          sourceLocation: location)
        return
      }
      guard await awaitProgress("receive(\(expectation))", at: location) else { return }
    }
  }
}
