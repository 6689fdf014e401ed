/// A group of the store's selections, kept under its key (the view-model type or the key
/// path) in `Store.selectionGroups`: a ``_SelectionGroup`` or the ``_StateChangeGroup``, built as
/// ``_ObserverGroup`` describes.
///
/// The group does not keep its key: the store drops emptied groups by filtering its table,
/// so a group's first cache lines hold what a delivery reads (a key, an `AnyHashable`, is 40
/// bytes; with a thousand scopes, each delivery finds its group out of the cache).
@usableFromInline
@MainActor
class _SelectionGroupBase<S: State>: _ObserverGroup<S> {
  @usableFromInline
  override init(
    refresh: @escaping @MainActor (_ObserverGroup<S>, S, UInt64) -> Void,
    removeCancelled: @escaping @MainActor (_ObserverGroup<S>) -> Bool,
    isEmpty: @escaping @MainActor (_ObserverGroup<S>) -> Bool
  ) {
    super.init(refresh: refresh, removeCancelled: removeCancelled, isEmpty: isEmpty)
  }
}

/// One subscriber of a selection, remembering the last value it received.
@usableFromInline
@MainActor
final class _SelectionEntry<Value: Equatable> {
  @usableFromInline let _slot: _CallbackSlot<@MainActor (Value) -> Void>
  /// The last value the subscriber received.
  @usableFromInline var _last: Value

  @usableFromInline
  init(last: Value, callback: @escaping @MainActor (Value) -> Void) {
    self._last = last
    self._slot = _CallbackSlot(callback)
  }
}

/// The subscribers of one selection (a view-model type or a key path), sharing one evaluation.
@usableFromInline
@MainActor
final class _SelectionGroup<S: State, Value: Equatable>: _SelectionGroupBase<S> {
  @usableFromInline let _select: (S) -> Value
  @usableFromInline var _entries: [_SelectionEntry<Value>] = [] {
    didSet { _soleEntry = _entries.count == 1 ? _entries[0] : nil }
  }
  /// The one subscriber while there is exactly one (most view models of a scope), kept by
  /// ``_entries``' observer, so that a delivery reaches it without fetching the list's buffer.
  @usableFromInline var _soleEntry: _SelectionEntry<Value>?
  @usableFromInline var _cached: Value
  @usableFromInline var _cachedVersion: UInt64

  /// A group whose operations are its own methods, specialised where this is called.
  @inlinable
  convenience init(select: @escaping (S) -> Value, state: S, version: UInt64) {
    // `group` is always a `SelectionGroup<S, Value>`: see `ObserverGroup`.
    self.init(
      select: select, state: state, version: version,
      refresh: { group, state, version in
        unsafeDowncast(group, to: _SelectionGroup<S, Value>.self).deliver(state, version: version)
      },
      removeCancelled: {
        unsafeDowncast($0, to: _SelectionGroup<S, Value>.self)._removeCancelledEntries()
      },
      isEmpty: { unsafeDowncast($0, to: _SelectionGroup<S, Value>.self)._entries.isEmpty })
  }

  @usableFromInline
  init(
    select: @escaping (S) -> Value, state: S, version: UInt64,
    refresh: @escaping @MainActor (_ObserverGroup<S>, S, UInt64) -> Void,
    removeCancelled: @escaping @MainActor (_ObserverGroup<S>) -> Bool,
    isEmpty: @escaping @MainActor (_ObserverGroup<S>) -> Bool
  ) {
    self._select = select
    self._cached = select(state)
    self._cachedVersion = version
    super.init(refresh: refresh, removeCancelled: removeCancelled, isEmpty: isEmpty)
  }

  // The subscribers' tokens hold their slots (see `Store.subscribe(key:select:_:)`): release
  // the callbacks, and what they captured, with the group, that is with the store, as a weak
  // reference from the token would. A slot may be cleared from any thread.
  deinit {
    for entry in _entries { entry._slot._clear() }
  }

  /// Drops cancelled subscribers; returns whether the group is now empty.
  @usableFromInline
  func _removeCancelledEntries() -> Bool {
    // The entries as they were keep the removed ones alive until the write is over: a removed
    // entry's last value is user code's, whose deinitializer may subscribe to this selection
    // (appending to `entries`) or read it (`cached`).
    // Asked after they are released, which may have subscribed.
    do {
      let before = _entries
      _entries.removeAll { !$0._slot._isActive }
      withExtendedLifetime(before) {}
    }
    return _entries.isEmpty
  }

  @inlinable
  func value(for state: S, version: UInt64) -> Value {
    if version != _cachedVersion {
      var fresh = _select(state)
      _cachedVersion = version
      // Swapped rather than assigned, so that the value it replaces is released after the
      // write, from `fresh`: its deinitializer may subscribe, which reads `cached`.
      swap(&_cached, &fresh)
    }
    return _cached
  }

  /// Evaluates the selection on `state` (once per `version`) and tells each subscriber whose
  /// last value differs.
  @inlinable
  func deliver(_ state: S, version: UInt64) {
    let value = value(for: state, version: version)
    if let sole = _soleEntry {
      deliver(value, to: sole)
      return
    }
    for entry in _entries { deliver(value, to: entry) }
  }

  /// Tells `entry` about `value` unless its last value is equal.
  @inlinable @inline(__always)
  func deliver(_ value: Value, to entry: _SelectionEntry<Value>) {
    guard entry._last != value else { return }
    // Swapped rather than assigned: the value it replaces is released after the write.
    var replaced = value
    swap(&entry._last, &replaced)
    entry._slot.callback?(value)
  }
}
