/// A registered `(old, new)` listener.
@usableFromInline
typealias ListenerEntry<S: State> = CallbackSlot<@MainActor (S, S) -> Void>

/// A registered observer of applied updaters.
@usableFromInline
typealias UpdateObserverEntry<S: State> = CallbackSlot<@MainActor (AppliedUpdate<S>) -> Void>

extension Store {
  /// Calls `listener` with the state before and after every updater, until the token is
  /// cancelled or released.
  ///
  /// While at least one listener is registered, the store keeps the old state for the length of
  /// a dispatch, which costs a copy-on-write copy of whatever the updater changes.
  ///
  /// - Returns: The token that keeps the listener registered.
  public func addListener(
    _ listener: @escaping @MainActor (_ old: S, _ new: S) -> Void
  ) -> Subscription {
    let entry = ListenerEntry(listener)
    listeners.append(entry)
    refreshHasObservers()
    return Subscription { [weak self, weak entry] in
      entry?.clear()
      self?.noteCancellation()
    }
  }

  /// Calls `observer` with every updater the store applies, after any interceptor, with its
  /// cause; an action recorder is built on this.
  ///
  /// Observing updates does not make the store keep the old state.
  ///
  /// - Returns: The token that keeps the observer registered.
  public func observeUpdates(
    _ observer: @escaping @MainActor (_ update: AppliedUpdate<S>) -> Void
  ) -> Subscription {
    if let scopeLink { return observeScopedUpdates(link: scopeLink, observer) }
    let entry = UpdateObserverEntry(observer)
    updateObservers.append(entry)
    refreshHasObservers()
    // The token holds the entry strongly: a weak reference would give the entry a side table,
    // and every dispatch retains it to call it, through the side table's slow path (a fifth
    // of a journaled store's dispatch, P1 in store-bench). An observer that holds its own
    // token makes a cycle through the entry, which the store's deinitializer breaks by
    // clearing its observers.
    return Subscription { [weak self, entry] in
      entry.clear()
      self?.noteCancellation()
    }
  }

  /// Tells the `(old, new)` listeners about the change just made.
  @inlinable
  func notifyListeners(old: S) {
    for entry in listeners {
      entry.callback?(old, currentState)
    }
  }

  /// Tells subscribers and scopes about the change just made; `origin` is the part of the state
  /// the updater could have changed, for scopes to skip a change outside their slice; found only
  /// when a scope needs it, as it takes a dynamic cast.
  @inlinable
  func notifyObservers(origin: @autoclosure () -> SliceOrigin) {
    if !selectionOrder.isEmpty {
      for group in selectionOrder {
        group.refresh(currentState, version: version)
      }
    }
    if !elementOrder.isEmpty {
      for group in elementOrder {
        group.refresh(currentState)
      }
    }
    if !scopeNodes.isEmpty {
      notifyScopes(origin: origin)
    }
  }

  /// Tells the update observers; inlinable so that boxing the updater runs as code specialised
  /// for its type (generic code looks up the existential's metadata on every update).
  @inlinable
  func notifyUpdateObservers<U: StateUpdater>(_ updater: U, cause: DispatchCause?)
  where U.StateType == S {
    let update = AppliedUpdate(updater: updater, cause: cause, sequence: version)
    for entry in updateObservers {
      entry.callback?(update)
    }
  }
}
