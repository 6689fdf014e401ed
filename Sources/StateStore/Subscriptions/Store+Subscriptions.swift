extension Store {
  /// Delivers `VM(state:)` at once and then whenever it differs from the last value delivered.
  ///
  /// All subscribers of one view-model type share a single `init?(state:)` evaluation per state
  /// change. `nil` means `init?(state:)` failed. A scope whose slice is gone (its root
  /// released, its element removed) delivers nothing and gives a token that does nothing.
  ///
  /// - Returns: The token that keeps the subscription alive.
  /// - Complexity: O(view-model types) per dispatch, plus one comparison per subscriber.
  @inlinable
  public func subscribe<VM: ViewModelWithState>(
    _ type: VM.Type, _ onChange: @escaping @MainActor (VM?) -> Void
  ) -> Subscription where VM.StateType == S {
    subscribe(key: ObjectIdentifier(VM.self), select: { VM(state: $0) }, onChange)
  }

  /// Delivers the value at `keyPath` at once and then whenever it differs from the last one.
  ///
  /// All subscribers of one key path share a single read per state change. A scope whose slice
  /// is gone delivers nothing and gives a token that does nothing.
  ///
  /// - Returns: The token that keeps the subscription alive.
  @inlinable
  public func subscribe<Value: Equatable & Sendable>(
    to keyPath: KeyPath<S, Value>, _ onChange: @escaping @MainActor (Value) -> Void
  ) -> Subscription {
    subscribe(key: keyPath as AnyKeyPath, select: { $0[keyPath: keyPath] }, onChange)
  }

  /// Subscribes `onChange` to the selection `select` shared under `key`; inlinable so that the
  /// group's refresh is made, and runs, as code specialised for the application's types.
  @inlinable
  func subscribe<Value: Equatable & Sendable>(
    key: AnyHashable, select: @escaping (S) -> Value,
    _ onChange: @escaping @MainActor (Value) -> Void
  ) -> Subscription {
    checkNotInsideUpdater("subscribe")
    // A scope whose slice is gone has no value to deliver, and never will have.
    guard let state = liveState else { return Subscription {} }
    let group: _SelectionGroup<S, Value>
    if let existing = _selectionGroups[key] as? _SelectionGroup<S, Value> {
      group = existing
    } else {
      group = _SelectionGroup(select: select, state: state, version: _subscriptionVersion)
      _selectionGroups[key] = group
      _selectionOrder.append(group)
      _refreshHasObservers()
    }
    let value = group.value(for: state, version: _subscriptionVersion)
    let entry = _SelectionEntry(last: value, callback: onChange)
    group._entries.append(entry)
    runAsStoreCallback { onChange(value) }
    // The token holds the slot and the store's cancellation log, not weak references to the
    // entry and the store: a weak reference gives its object a side table, and every retain
    // and release of it (the entry in `deliver`, a scope at each call) then takes the
    // runtime's slow path. Neither refers back to the token. The group's deinitializer clears
    // its entries' slots, so a callback that holds its own token is released with the store.
    let slot = entry._slot
    return Subscription { [_cancellationLog] in
      slot._clear()
      _cancellationLog._note()
    }
  }
}
