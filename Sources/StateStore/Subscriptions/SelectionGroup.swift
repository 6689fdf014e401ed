/// A group of the store's selections, kept under its key: a ``SelectionGroup`` or the
/// ``StateChangeGroup``, built as ``ObserverGroup`` describes.
@usableFromInline
@MainActor
class SelectionGroupBase<S: State>: ObserverGroup<S> {
  /// What the group is found under in the store: the view-model type or the key path.
  @usableFromInline let key: AnyHashable

  @usableFromInline
  init(
    key: AnyHashable, refresh: @escaping @MainActor (ObserverGroup<S>, S, UInt64) -> Void,
    removeCancelled: @escaping @MainActor (ObserverGroup<S>) -> Bool,
    isEmpty: @escaping @MainActor (ObserverGroup<S>) -> Bool
  ) {
    self.key = key
    super.init(refresh: refresh, removeCancelled: removeCancelled, isEmpty: isEmpty)
  }
}

/// One subscriber of a selection, remembering the last value it received.
@usableFromInline
@MainActor
final class SelectionEntry<Value: Equatable> {
  @usableFromInline let slot: CallbackSlot<@MainActor (Value) -> Void>
  @usableFromInline var last: Value

  @usableFromInline
  init(last: Value, callback: @escaping @MainActor (Value) -> Void) {
    self.last = last
    self.slot = CallbackSlot(callback)
  }
}

/// The subscribers of one selection (a view-model type or a key path), sharing one evaluation.
@usableFromInline
@MainActor
final class SelectionGroup<S: State, Value: Equatable>: SelectionGroupBase<S> {
  @usableFromInline let select: (S) -> Value
  @usableFromInline var entries: [SelectionEntry<Value>] = []
  @usableFromInline var cached: Value
  @usableFromInline var cachedVersion: UInt64

  /// A group whose operations are its own methods, specialised where this is called.
  @inlinable
  convenience init(key: AnyHashable, select: @escaping (S) -> Value, state: S, version: UInt64) {
    // `group` is always a `SelectionGroup<S, Value>`: see `ObserverGroup`.
    self.init(
      key: key, select: select, state: state, version: version,
      refresh: { group, state, version in
        unsafeDowncast(group, to: SelectionGroup<S, Value>.self).deliver(state, version: version)
      },
      removeCancelled: {
        unsafeDowncast($0, to: SelectionGroup<S, Value>.self).removeCancelledEntries()
      },
      isEmpty: { unsafeDowncast($0, to: SelectionGroup<S, Value>.self).entries.isEmpty })
  }

  @usableFromInline
  init(
    key: AnyHashable, select: @escaping (S) -> Value, state: S, version: UInt64,
    refresh: @escaping @MainActor (ObserverGroup<S>, S, UInt64) -> Void,
    removeCancelled: @escaping @MainActor (ObserverGroup<S>) -> Bool,
    isEmpty: @escaping @MainActor (ObserverGroup<S>) -> Bool
  ) {
    self.select = select
    self.cached = select(state)
    self.cachedVersion = version
    super.init(key: key, refresh: refresh, removeCancelled: removeCancelled, isEmpty: isEmpty)
  }

  /// Drops cancelled subscribers; returns whether the group is now empty.
  @usableFromInline
  func removeCancelledEntries() -> Bool {
    // The entries as they were keep the removed ones alive until the write is over: a removed
    // entry's last value is user code's, whose deinitializer may subscribe to this selection
    // (appending to `entries`) or read it (`cached`).
    // Asked after they are released, which may have subscribed.
    do {
      let before = entries
      entries.removeAll { !$0.slot.isActive }
      withExtendedLifetime(before) {}
    }
    return entries.isEmpty
  }

  @inlinable
  func value(for state: S, version: UInt64) -> Value {
    if version != cachedVersion {
      var fresh = select(state)
      cachedVersion = version
      // Swapped rather than assigned, so that the value it replaces is released after the
      // write, from `fresh`: its deinitializer may subscribe, which reads `cached`.
      swap(&cached, &fresh)
    }
    return cached
  }

  /// Evaluates the selection on `state` (once per `version`) and tells each subscriber whose
  /// last value differs.
  @inlinable
  func deliver(_ state: S, version: UInt64) {
    let value = value(for: state, version: version)
    for entry in entries where entry.last != value {
      entry.last = value
      entry.slot.callback?(value)
    }
  }
}
