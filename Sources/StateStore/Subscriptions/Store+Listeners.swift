/// A registered `(old, new)` listener.
@usableFromInline
typealias _ListenerEntry<S: State> = _CallbackSlot<@MainActor (S, S) -> Void>

/// The journal of a root store (StatePersistence's `JournaledStore`): told of every updater
/// the root applies, with its cause; both arguments are consumed.
@usableFromInline
package typealias _Journal<S: State> =
  @MainActor (_ updater: consuming any StateUpdater<S>, _ cause: consuming DispatchCause?) -> Void

/// A registered observer of applied updaters.
@usableFromInline
typealias _UpdateObserverEntry<S: State> = _CallbackSlot<@MainActor (AppliedUpdate<S>) -> Void>

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
    let entry = _ListenerEntry(listener)
    _listeners.append(entry)
    _refreshHasObservers()
    // The token holds the entry and the store's cancellation log strongly, for the reason
    // given in `subscribe(key:select:_:)`; the store's deinitializer clears its listeners.
    return Subscription { [_cancellationLog, entry] in
      entry._clear()
      _cancellationLog._note()
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
    _runtime._observeUpdates(observer, store: self)
  }
}
