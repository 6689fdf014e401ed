import Synchronization

/// The rows of one ``RowViewModel`` type over one `TrackedArray` of one store: the shared slice
/// they all read, selected and compared once per update, and every row subscribed.
///
/// Each row has its own element subscription, so a changed element re-evaluates only its rows.
/// The group observes the store's state changes once for all its rows; when the shared slice
/// differs from the last one, it re-evaluates every row. The store tells state-change observers
/// before element subscribers, so `shared` is already current when a changed element reaches
/// its row in the same update, and a row hears once per update at most.
///
/// The store's registry, its state-change observer and the rows' element subscriptions hold the
/// group. The first update after its last row is cancelled ends the observation and removes the
/// group from the registry, which releases it.
@MainActor
@usableFromInline
final class _RowModelGroup<Model: RowViewModel> {
  /// The shared slice as of the last update.
  @usableFromInline var _shared: Model.Shared
  /// Every row, in subscription order; cancelled ones are dropped at the next sweep.
  @usableFromInline var _entries: [_RowModelEntry<Model>] = []
  /// Where the rows are in the state.
  @usableFromInline let _rows: KeyPath<Model.StateType, TrackedArray<Model.Element>>
  /// The group's observation of the store's state changes.
  @usableFromInline var _stateObservation: Subscription?
  /// Removes the group from its registry once its last row is gone.
  var onEnd: () -> Void = {}
  /// Rows cancelled since the last sweep; tokens may be cancelled on any thread.
  @usableFromInline nonisolated let _cancellations = Atomic<Int>(0)

  @usableFromInline
  init(shared: Model.Shared, rows: KeyPath<Model.StateType, TrackedArray<Model.Element>>) {
    self._shared = shared
    self._rows = rows
  }

  /// Adds a row; sweeps cancelled rows first, so churning rows never grow the list.
  @usableFromInline
  func _add(_ entry: _RowModelEntry<Model>) {
    sweepIfNeeded()
    _entries.append(entry)
  }

  /// The token of a row: cancels its element subscription and drops the row from the group.
  @usableFromInline
  func _token(for entry: _RowModelEntry<Model>, elementSubscription: Subscription) -> Subscription {
    Subscription { [self] in
      elementSubscription.cancel()
      entry._slot._clear()
      _cancellations.add(1, ordering: .relaxed)
    }
  }

  /// Compares the shared slice of `state` with the last one, and re-evaluates every row if it
  /// changed.
  ///
  /// - Complexity: O(1) when the shared slice is unchanged (plus `Model.shared(in:)` and one
  ///   comparison); O(rows) when it changed: one element look-up and one evaluation per row.
  @inlinable
  func stateChanged(to state: Model.StateType) {
    if _cancellations.load(ordering: .relaxed) != 0, _sweepLeavesNoRow() { return }
    let value = Model.shared(in: state)
    guard value != _shared else { return }
    var previous = value
    swap(&_shared, &previous)
    // `previous`, the old slice, is released from here on, outside any access to `shared`.
    let array = state[keyPath: _rows]
    // A row subscribed by a view during this loop already got the new slice.
    for entry in _entries {
      entry.receive(array[id: entry.id], shared: value)
    }
  }

  func sweepIfNeeded() {
    guard _cancellations.load(ordering: .relaxed) != 0 else { return }
    _cancellations.store(0, ordering: .relaxed)
    // Released after the write: see the proof at `entries`.
    let before = _entries
    _entries.removeAll { !$0._slot._isActive }
    withExtendedLifetime(before) {}
  }

  /// Drops cancelled rows; if none is left, ends the group's observation of the store, which
  /// releases the group, and returns `true`.
  @usableFromInline
  func _sweepLeavesNoRow() -> Bool {
    sweepIfNeeded()
    guard _entries.isEmpty else { return false }
    _stateObservation?.cancel()
    _stateObservation = nil
    onEnd()
    return true
  }
}

/// One row: its id, the last view model it received, and its callback.
@MainActor
@usableFromInline
final class _RowModelEntry<Model: RowViewModel> {
  @usableFromInline let id: Model.ID
  /// Cleared by the row's token, which may be cancelled on any thread.
  @usableFromInline nonisolated let _slot: _CallbackSlot<@MainActor (Model?) -> Void>
  @usableFromInline let _delivery = _LastDelivery<Model>()

  @usableFromInline
  init(id: Model.ID, callback: @escaping @MainActor (Model?) -> Void) {
    self.id = id
    self._slot = _CallbackSlot(callback)
  }

  /// Evaluates the row and delivers its view model if it differs from the last one.
  @inlinable
  func receive(_ element: Model.Element?, shared: Model.Shared) {
    let model = element.flatMap { Model(element: $0, shared: shared) }
    if _delivery.isNew(model) { _slot.callback?(model) }
  }
}

/// A store's row groups, kept in the store's extension storage.
///
/// Groups are held strongly and leave when their last row is gone: a weak reference would give
/// each group a side table, and every retain of it on the update path would take the slow path.
@MainActor
@usableFromInline
final class _RowModelRegistry {
  private var groups: [Key: AnyObject] = [:]

  private struct Key: Hashable {
    let model: ObjectIdentifier
    let rows: AnyKeyPath
  }

  /// The group of `Model`'s rows in `rows`, or the one `make` creates.
  ///
  /// - Complexity: O(1).
  @usableFromInline
  func _group<Model: RowViewModel>(
    _ type: Model.Type, rows: AnyKeyPath, make: () -> _RowModelGroup<Model>
  ) -> _RowModelGroup<Model> {
    let key = Key(model: ObjectIdentifier(Model.self), rows: rows)
    if let group = groups[key] as? _RowModelGroup<Model> { return group }
    let group = make()
    groups[key] = group
    group.onEnd = { [weak self] in self?.groups[key] = nil }
    return group
  }
}

extension Store {
  /// The store's row groups.
  @usableFromInline
  var _rowModelRegistry: _RowModelRegistry {
    let key = ObjectIdentifier(_RowModelRegistry.self)
    if let existing = _extensionStorage[key] as? _RowModelRegistry { return existing }
    let registry = _RowModelRegistry()
    _extensionStorage[key] = registry
    return registry
  }

  /// The group of `Model`'s rows in `rows`, created with its observation of the store when it
  /// has no row yet.
  ///
  /// Inlined so that the observation, which runs on every update, is specialised for the
  /// application's types.
  @inlinable
  func rowModelGroup<Model: RowViewModel>(
    _ type: Model.Type, rows: KeyPath<S, TrackedArray<Model.Element>>
  ) -> _RowModelGroup<Model> where Model.StateType == S {
    _rowModelRegistry._group(Model.self, rows: rows) {
      let group = _RowModelGroup<Model>(shared: Model.shared(in: state), rows: rows)
      // Held strongly: a weak reference would cost a side-table load on every update.
      group._stateObservation = observeStateChanges { [group] state in
        group.stateChanged(to: state)
      }
      return group
    }
  }
}
