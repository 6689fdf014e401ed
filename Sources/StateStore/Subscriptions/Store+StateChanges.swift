/// The observers of every change of a store's state, notified with the view-model subscribers.
@MainActor
@usableFromInline
final class _StateChangeGroup<S: State>: _SelectionGroupBase<S> {
  @usableFromInline var _entries: [_CallbackSlot<@MainActor (S) -> Void>] =
    []

  /// A group whose operations are its own methods, specialised where this is called.
  @inlinable
  convenience init() {
    // `group` is always a `StateChangeGroup<S>`: see `ObserverGroup`.
    self.init(
      refresh: { group, state, _ in
        unsafeDowncast(group, to: _StateChangeGroup<S>.self).deliver(state)
      },
      removeCancelled: {
        unsafeDowncast($0, to: _StateChangeGroup<S>.self)._removeCancelledEntries()
      },
      isEmpty: { unsafeDowncast($0, to: _StateChangeGroup<S>.self)._entries.isEmpty })
  }

  @usableFromInline
  override init(
    refresh: @escaping @MainActor (_ObserverGroup<S>, S, UInt64) -> Void,
    removeCancelled: @escaping @MainActor (_ObserverGroup<S>) -> Bool,
    isEmpty: @escaping @MainActor (_ObserverGroup<S>) -> Bool
  ) {
    super.init(refresh: refresh, removeCancelled: removeCancelled, isEmpty: isEmpty)
  }

  /// Calls every observer.
  @inlinable
  func deliver(_ state: S) {
    for entry in _entries {
      entry.callback?(state)
    }
  }

  /// Drops cancelled observers; returns whether the group is now empty.
  @usableFromInline
  func _removeCancelledEntries() -> Bool {
    _entries.removeAll { !$0._isActive }
    return _entries.isEmpty
  }
}

extension Store {
  /// Calls `onChange` with the current state at once, and then with the new state after every
  /// update that can change this store's state, until the token is cancelled or released: the
  /// hook for subscriptions that modules built on the store compute themselves, such as a view
  /// model built with a subscriber's own value, or the rows of a list that read a shared slice.
  ///
  /// Unlike a listener, it does not make the store keep the old state; unlike `observeUpdates`,
  /// a scope's observer also hears about changes made at the root. It runs with the view-model
  /// and key-path subscribers, in subscription order, before the element subscribers. A scope
  /// whose slice is gone calls nothing and gives a token that does nothing.
  ///
  /// - Returns: The token that keeps the observer registered.
  /// - Complexity: O(1) to register; per update, one call of `onChange`.
  @inlinable
  package func observeStateChanges(
    _ onChange: @escaping @MainActor (_ state: S) -> Void
  ) -> Subscription {
    let group = stateChangeGroup()
    // A scope whose slice is gone has no state to give, and never will have.
    guard let state = liveState else { return Subscription {} }
    let entry = _CallbackSlot(onChange)
    group._entries.append(entry)
    runAsStoreCallback { onChange(state) }
    // The token holds the entry strongly: a weak reference would give the entry a side table
    // and make every retain of it in `deliver` take the slow path. The entry holds nothing once
    // cleared, and nothing in it refers back to the token.
    return Subscription { [_cancellationLog, entry] in
      entry._clear()
      _cancellationLog._note()
    }
  }

  /// This store's group of state-change observers, made on first use; inlinable so that the
  /// group is made, and delivers, as code specialised for the observing module's state.
  @inlinable
  func stateChangeGroup() -> _StateChangeGroup<S> {
    checkNotInsideUpdater("subscribe")
    let key = ObjectIdentifier(_StateChangeGroup<S>.self)
    if let existing = _selectionGroups[key] as? _StateChangeGroup<S> { return existing }
    let group = _StateChangeGroup<S>()
    _selectionGroups[key] = group
    _selectionOrder.append(group)
    _refreshHasObservers()
    return group
  }
}
