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
    entries.removeAll { !$0.slot.isActive }
    return entries.isEmpty
  }

  override var isEmpty: Bool { entries.isEmpty }

  func value(for state: S, version: UInt64) -> Value {
    if version != cachedVersion {
      cached = select(state)
      cachedVersion = version
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

extension Store {
  /// Delivers `VM(state:)` at once and then whenever it differs from the last value delivered.
  ///
  /// All subscribers of one view-model type share a single `init?(state:)` evaluation per state
  /// change. `nil` means `init?(state:)` failed.
  ///
  /// - Returns: The token that keeps the subscription alive.
  /// - Complexity: O(view-model types) per dispatch, plus one comparison per subscriber.
  public func subscribe<VM: ViewModelWithState>(
    _ type: VM.Type, _ onChange: @escaping @MainActor (VM?) -> Void
  ) -> Subscription where VM.StateType == S {
    subscribe(key: ObjectIdentifier(VM.self), select: { VM(state: $0) }, onChange)
  }

  /// Delivers the value at `keyPath` at once and then whenever it differs from the last one.
  ///
  /// All subscribers of one key path share a single read per state change.
  ///
  /// - Returns: The token that keeps the subscription alive.
  public func subscribe<Value: Equatable & Sendable>(
    to keyPath: KeyPath<S, Value>, _ onChange: @escaping @MainActor (Value) -> Void
  ) -> Subscription {
    subscribe(key: keyPath as AnyKeyPath, select: { $0[keyPath: keyPath] }, onChange)
  }

  private func subscribe<Value: Equatable & Sendable>(
    key: AnyHashable, select: @escaping (S) -> Value,
    _ onChange: @escaping @MainActor (Value) -> Void
  ) -> Subscription {
    checkNotInsideUpdater("subscribe")
    let group: SelectionGroup<S, Value>
    if let existing = selectionGroups[key] as? SelectionGroup<S, Value> {
      group = existing
    } else {
      group = SelectionGroup(key: key, select: select, state: currentState, version: version)
      selectionGroups[key] = group
      selectionOrder.append(group)
      refreshHasObservers()
    }
    let value = group.value(for: currentState, version: version)
    let entry = SelectionEntry(last: value, callback: onChange)
    group.entries.append(entry)
    runAsStoreCallback { onChange(value) }
    return Subscription { [weak self, weak entry] in
      entry?.slot.clear()
      self?.noteCancellation()
    }
  }
}
