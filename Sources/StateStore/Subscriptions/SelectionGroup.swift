/// The subscribers of one selection (a view-model type or a key path), sharing one evaluation.
@usableFromInline
@MainActor
class SelectionGroupBase<S: State> {
  @usableFromInline let key: AnyHashable
  /// The group's refresh, as a closure made where the subscription is made (see
  /// `Store.subscribe(key:select:_:)`), so that it runs as code specialised for the
  /// application's types: an override would run as generic code, which looks up the runtime
  /// metadata of the entries' types on every update.
  @usableFromInline let refreshBody: @MainActor (SelectionGroupBase<S>, S, UInt64) -> Void

  @usableFromInline
  init(key: AnyHashable, refresh: @escaping @MainActor (SelectionGroupBase<S>, S, UInt64) -> Void) {
    self.key = key
    self.refreshBody = refresh
  }

  /// Evaluates the selection on `state` (once per `version`) and tells each subscriber whose
  /// last value differs.
  @inlinable
  final func refresh(_ state: S, version: UInt64) {
    refreshBody(self, state, version)
  }

  var isEmpty: Bool { true }

  /// Drops cancelled subscribers; returns whether the group is now empty.
  func removeCancelled() -> Bool { true }
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

@usableFromInline
@MainActor
final class SelectionGroup<S: State, Value: Equatable>: SelectionGroupBase<S> {
  @usableFromInline let select: (S) -> Value
  @usableFromInline var entries: [SelectionEntry<Value>] = []
  @usableFromInline var cached: Value
  @usableFromInline var cachedVersion: UInt64

  /// A group whose refresh is ``deliver(_:version:)``, specialised where this is called.
  @inlinable
  convenience init(key: AnyHashable, select: @escaping (S) -> Value, state: S, version: UInt64) {
    self.init(key: key, select: select, state: state, version: version) { group, state, version in
      // The closure is stored only in the group made here, and only that group's `refresh`
      // calls it, passing itself: `group` is always a `SelectionGroup<S, Value>`.
      unsafeDowncast(group, to: SelectionGroup<S, Value>.self).deliver(state, version: version)
    }
  }

  @usableFromInline
  init(
    key: AnyHashable, select: @escaping (S) -> Value, state: S, version: UInt64,
    refresh: @escaping @MainActor (SelectionGroupBase<S>, S, UInt64) -> Void
  ) {
    self.select = select
    self.cached = select(state)
    self.cachedVersion = version
    super.init(key: key, refresh: refresh)
  }

  override func removeCancelled() -> Bool {
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

  override var isEmpty: Bool { entries.isEmpty }

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
