/// What a running side effect can see and do: read the state, dispatch, use its dependencies.
///
/// A context keeps its store alive while the effect runs; it is released with the effect.
/// Every call reaches the store on the main actor, in the order the effect awaits them, so the
/// updaters of one effect apply in the order it dispatched them.
public struct SideEffectContext<S: State, D: Sendable>: Sendable {
  /// The store the effect runs on, for modules that extend effects (such as navigation).
  @usableFromInline package let _store: Store<S, D>

  /// The dependencies of the store: clients, clocks, file systems.
  ///
  /// Every effect of a store gets the same value; tests pass fakes.
  public let dependencies: D

  /// Creates the context of an effect running on `store`.
  @MainActor @inlinable init(store: Store<S, D>) {
    self._store = store
    self.dependencies = store.dependencies
  }

  /// The store's current state: it includes every updater this effect has already dispatched.
  ///
  /// ```swift
  /// let done = await context.state.todos.filter(\.done).count
  /// ```
  ///
  /// - Precondition: For an effect running on a scope, the scope's slice still exists (see
  ///   `Store.state`). An effect of an element scope that may outlive its element (a save
  ///   that finishes after the row is deleted) reads ``stateIfAvailable`` instead.
  public var state: S {
    get async { await _store.stateForEffect() }
  }

  /// The store's current state, or `nil` when the effect runs on a scope whose slice is gone:
  /// its root was released, or its element removed.
  ///
  /// ```swift
  /// guard let todo = await context.stateIfAvailable else { return }
  /// ```
  public var stateIfAvailable: S? {
    get async { await _store.stateIfAvailableForEffect() }
  }

  /// The store's current state; use ``state``.
  @available(*, deprecated, renamed: "state")
  public func getState() async -> S {
    await state
  }

  /// Applies `updater` on the store and returns once listeners and subscribers have seen it.
  ///
  /// The updater is ignored if this effect has been cancelled, so that a cancelled search, for
  /// example, never overwrites the results of the newer one.
  ///
  /// Inlinable, so that the store applies the updater through code specialised for its type,
  /// as a `dispatch` made on the main actor does. `fileID` and `line` name the call, recorded
  /// as the update's `DispatchSite`; leave them to their defaults.
  @inlinable
  public func dispatch<U: StateUpdater>(
    _ updater: U, fileID: String = #fileID, line: Int = #line
  ) async where U.StateType == S {
    await _store.dispatchUnlessCancelled(updater, fileID: fileID, line: line)
  }

  /// Runs `effect` on the store and waits for it, as part of this effect.
  ///
  /// The nested effect goes through the interceptors, shares this effect's task (cancelling
  /// one cancels both) and its updaters are recorded with the cause `"Outer › Inner"`.
  ///
  /// `fileID` and `line` name the call: the nested effect's `DispatchCause.site`.
  ///
  /// - Throws: Whatever `effect` throws.
  public func dispatch<E: SideEffect>(_ effect: E, fileID: String = #fileID, line: Int = #line)
    async throws
  where E.StateType == S, E.Dependencies == D {
    try await _store.dispatch(effect, fileID: fileID, line: line)
  }

  /// Runs `effect` on the store, waits for it and returns its value.
  ///
  /// `fileID` and `line` name the call: the nested effect's `DispatchCause.site`.
  ///
  /// - Throws: Whatever `effect` throws, or ``EffectNotRunError`` if it did not run.
  @discardableResult
  public func dispatch<E: ReturningSideEffect>(
    _ effect: E, fileID: String = #fileID, line: Int = #line
  ) async throws -> E.ReturnValue
  where E.StateType == S, E.Dependencies == D {
    try await _store.dispatch(effect, fileID: fileID, line: line)
  }

  /// Cancels every running effect of the store whose cancellation identifier equals `id`.
  public func cancelEffects(identifiedBy id: some Hashable & Sendable) async {
    await _store.cancelEffects(identifiedBy: id)
  }

  /// Calls `dependency` and returns its value, recorded in the action log that follows this
  /// effect; in a replay of that log, returns the recorded value without calling `dependency`.
  ///
  /// One line wraps a call to the world, so that a recorded session replays with no network
  /// and no clock:
  ///
  /// ```swift
  /// let results = try await context.recorded { try await context.dependencies.api.search(query) }
  /// ```
  ///
  /// The values of one effect are recorded, and replayed, in the order the effect asks for
  /// them; `label` (the value's type name by default) names each one in the log and must match
  /// in a replay. A dependency that throws is recorded too, by its error's description, and
  /// a replay throws `RecordedDependencyError` with it. With no log attached (an
  /// `ActionRecorder` with `recordsEffects`, or recorded effects given to a replay), this is
  /// `try await dependency()` and costs one task-local read more.
  ///
  /// - Throws: What `dependency` throws; in a replay, the recorded failure, or an error naming
  ///   the effect and its entry when the log has no value for this call.
  nonisolated(nonsending) public func recorded<Value: Codable & Sendable>(
    _ label: String? = nil, _ dependency: () async throws -> Value
  ) async throws -> Value {
    guard let logged = LoggedEffect.current else { return try await dependency() }
    let label = label ?? String(describing: Value.self)
    if let replayed = try await logged.log.replayedValue(
      Value.self, label: label, ofEffect: logged.number)
    {
      return replayed
    }
    do {
      let value = try await dependency()
      await logged.log.recordValue(value, label: label, ofEffect: logged.number)
      return value
    } catch {
      let failure = String(describing: error)
      await logged.log.recordFailure(failure, label: label, ofEffect: logged.number)
      throw error
    }
  }

  /// `dependency`, wrapped so that each call records its value as ``recorded(_:_:)`` does:
  /// the one-line way to record every call of a function the effect makes.
  ///
  /// ```swift
  /// let search = context.recorded(context.dependencies.api.search)
  /// let milk = try await search("milk")  // recorded, or replayed
  /// ```
  public func recorded<Input: Sendable, Value: Codable & Sendable>(
    _ label: String? = nil, _ dependency: @escaping @Sendable (Input) async throws -> Value
  ) -> @Sendable (Input) async throws -> Value {
    { input in try await self.recorded(label) { try await dependency(input) } }
  }
}

// The context's calls reach the store through `async` methods on the main actor, which hop
// there themselves. Calling a synchronous main-actor method from the effect's code instead
// makes the caller hop there and back: the hop back off the main actor is one more turn of the
// global executor per call, even when the effect has nothing left to do but return.
extension Store {
  /// Dispatches `updater` unless the current task, the effect's, has been cancelled.
  @inlinable
  func dispatchUnlessCancelled<U: StateUpdater>(_ updater: U, fileID: String, line: Int) async
  where U.StateType == S {
    guard !Task.isCancelled else { return }
    dispatch(updater, fileID: fileID, line: line)
  }

  /// The state, as an effect reads it.
  func stateForEffect() async -> S {
    state
  }

  /// The state, or `nil` for a scope whose slice is gone, as an effect reads it.
  func stateIfAvailableForEffect() async -> S? {
    stateIfAvailable
  }
}
