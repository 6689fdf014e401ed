/// The observers of every change of a store's state, notified with the view-model subscribers.
@MainActor
@usableFromInline
final class StateChangeGroup<S: State>: SelectionGroupBase<S> {
  // Read on every update. Main-actor state whose every access is instantaneous (an append, a
  // copy for the loop in `deliver`, a `removeAll` whose predicate only asks a slot whether it
  // is active): no access spans a call into an observer. The `removeAll` destroys only
  // inactive slots, whose callback (and everything it captured) their token already released,
  // so no deinitializer of the application's runs inside it either. So no access can overlap
  // another and the run-time exclusivity check only costs time.
  @exclusivity(unchecked) @usableFromInline var entries: [CallbackSlot<@MainActor (S) -> Void>] =
    []
  /// Calls every observer.
  ///
  /// A closure rather than a loop in `refresh`: `observeStateChanges(_:)` is inlined into the
  /// module that observes and sets it there, so delivery runs as code specialised for the
  /// application's state instead of generic code with a metadata look-up per observer.
  @usableFromInline var deliver: @MainActor (S) -> Void = { _ in }

  init() {
    super.init(key: ObjectIdentifier(StateChangeGroup<S>.self)) { group, state, _ in
      // Stored only in this group, and called only by its `refresh` with itself.
      unsafeDowncast(group, to: StateChangeGroup<S>.self).deliver(state)
    }
  }

  override var isEmpty: Bool { entries.isEmpty }

  override func removeCancelled() -> Bool {
    entries.removeAll { !$0.isActive }
    return entries.isEmpty
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
  /// and key-path subscribers, in subscription order, before the element subscribers.
  ///
  /// - Returns: The token that keeps the observer registered.
  /// - Complexity: O(1) to register; per update, one call of `onChange`.
  @inlinable
  package func observeStateChanges(
    _ onChange: @escaping @MainActor (_ state: S) -> Void
  ) -> Subscription {
    let (group, isNew) = stateChangeGroup()
    if isNew {
      group.deliver = { [unowned group] state in
        for entry in group.entries {
          entry.callback?(state)
        }
      }
    }
    let entry = CallbackSlot(onChange)
    group.entries.append(entry)
    let state = liveState
    runAsStoreCallback { onChange(state) }
    // The token holds the entry strongly: a weak reference would give the entry a side table
    // and make every retain of it in `deliver` take the slow path. The entry holds nothing once
    // cleared, and nothing in it refers back to the token.
    return Subscription { [weak self, entry] in
      entry.clear()
      self?.noteCancellation()
    }
  }

  /// This store's group of state-change observers, and whether it was just created.
  @usableFromInline
  func stateChangeGroup() -> (group: StateChangeGroup<S>, isNew: Bool) {
    checkNotInsideUpdater("subscribe")
    let key = ObjectIdentifier(StateChangeGroup<S>.self)
    if let existing = selectionGroups[key] as? StateChangeGroup<S> { return (existing, false) }
    let group = StateChangeGroup<S>()
    selectionGroups[key] = group
    selectionOrder.append(group)
    refreshHasObservers()
    return (group, true)
  }
}
