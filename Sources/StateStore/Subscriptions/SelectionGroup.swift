/// The subscribers of one selection (a view-model type or a key path), sharing one evaluation.
@usableFromInline
@MainActor
class SelectionGroupBase<S: State> {
  let key: AnyHashable

  init(key: AnyHashable) {
    self.key = key
  }

  @usableFromInline
  func refresh(_ state: S, version: UInt64) {}

  var isEmpty: Bool { true }

  /// Drops cancelled subscribers; returns whether the group is now empty.
  func removeCancelled() -> Bool { true }
}

/// One subscriber of a selection, remembering the last value it received.
@MainActor
final class SelectionEntry<Value: Equatable> {
  let slot: CallbackSlot<@MainActor (Value) -> Void>
  var last: Value

  init(last: Value, callback: @escaping @MainActor (Value) -> Void) {
    self.last = last
    self.slot = CallbackSlot(callback)
  }
}

@MainActor
final class SelectionGroup<S: State, Value: Equatable>: SelectionGroupBase<S> {
  let select: (S) -> Value
  var entries: [SelectionEntry<Value>] = []
  var cached: Value
  var cachedVersion: UInt64

  init(key: AnyHashable, select: @escaping (S) -> Value, state: S, version: UInt64) {
    self.select = select
    self.cached = select(state)
    self.cachedVersion = version
    super.init(key: key)
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

  override func refresh(_ state: S, version: UInt64) {
    let value = value(for: state, version: version)
    for entry in entries where entry.last != value {
      entry.last = value
      entry.slot.callback?(value)
    }
  }
}
