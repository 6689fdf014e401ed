extension StoreHandle {
  /// Runs `effect` on the store and returns when it has finished, as `Store.dispatch(_:)` does.
  ///
  /// - Throws: `StoreReleasedError` once the store is released, or what the effect throws.
  /// `fileID` and `line` name the call, the effect's `DispatchCause.site`.
  public func dispatch<E: SideEffect>(_ effect: E, fileID: String = #fileID, line: Int = #line)
    async throws
  where E.StateType == S, E.Dependencies == Dependencies {
    try await withStore { try await $0.dispatch(effect, fileID: fileID, line: line) }
  }

  /// Runs `effect` on the store and returns its value, as `Store.dispatch(_:)` does.
  ///
  /// - Throws: `StoreReleasedError` once the store is released, or what the effect throws.
  /// `fileID` and `line` name the call, the effect's `DispatchCause.site`.
  @discardableResult
  public func dispatch<E: ReturningSideEffect>(
    _ effect: E, fileID: String = #fileID, line: Int = #line
  ) async throws -> E.ReturnValue
  where E.StateType == S, E.Dependencies == Dependencies {
    try await withStore { try await $0.dispatch(effect, fileID: fileID, line: line) }
  }

  /// Starts `effect` without waiting for it, as `Store.launch(_:)` does; `nil` once the store is
  /// released.
  @discardableResult
  public func launch<E: SideEffect>(_ effect: E) -> EffectTask<Void>?
  where E.StateType == S, E.Dependencies == Dependencies {
    store?.launch(effect)
  }

  /// Starts a returning `effect` without waiting for it, as `Store.launch(_:)` does.
  ///
  /// Its value can be awaited on the returned handle; `nil` once the store is released.
  ///
  /// ```swift
  /// let picking = store.launch(PickLabel())
  /// let label = try await picking?.value
  /// ```
  @discardableResult
  public func launch<E: ReturningSideEffect>(_ effect: E) -> EffectTask<E.ReturnValue>?
  where E.StateType == S, E.Dependencies == Dependencies {
    store?.launch(effect)
  }
}
