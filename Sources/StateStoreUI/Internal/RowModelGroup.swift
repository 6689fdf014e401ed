import Synchronization

/// The rows of one ``RowViewModel`` type over one `TrackedArray` of one store: the shared slice
/// they all read, evaluated and compared once per dispatch, and every row subscribed.
///
/// Each row has its own element subscription, so a changed element re-evaluates only its rows.
/// The group holds one subscription to the shared slice; when the slice changes, it re-evaluates
/// every row. The store notifies view-model subscribers before element subscribers, so `shared`
/// is already current when a changed element reaches its row in the same dispatch.
///
/// The rows' element subscriptions hold the group: it lives while a row does, and releasing it
/// ends its subscription to the shared slice.
@MainActor
@usableFromInline
final class RowModelGroup<Model: RowViewModel> {
  /// The shared slice as of the last dispatch.
  @usableFromInline var shared: Model.Shared
  /// Every row, in subscription order; cancelled ones are dropped at the next sweep.
  var entries: [RowModelEntry<Model>] = []
  /// Reads the array the rows are in, from the store's current state.
  let readRows: @MainActor () -> TrackedArray<Model.Element>?
  /// The group's subscription to the shared slice.
  var sharedSubscription: Subscription?
  /// Rows cancelled since the last sweep; tokens may be cancelled on any thread.
  nonisolated let cancellations = Atomic<Int>(0)

  init(shared: Model.Shared, readRows: @escaping @MainActor () -> TrackedArray<Model.Element>?) {
    self.shared = shared
    self.readRows = readRows
  }

  /// Adds a row; sweeps cancelled rows first, so churning rows never grow the list.
  @usableFromInline
  func add(_ entry: RowModelEntry<Model>) {
    if cancellations.load(ordering: .relaxed) != 0 { sweep() }
    entries.append(entry)
  }

  /// The token of a row: cancels its element subscription and drops the row from the group.
  @usableFromInline
  func token(for entry: RowModelEntry<Model>, elementSubscription: Subscription) -> Subscription {
    Subscription { [self] in
      elementSubscription.cancel()
      entry.slot.clear()
      cancellations.add(1, ordering: .relaxed)
    }
  }

  /// Re-evaluates every row with the new shared slice.
  ///
  /// - Complexity: O(rows): one element look-up and one evaluation per row.
  func sharedChanged(to value: Model.Shared) {
    shared = value
    if cancellations.load(ordering: .relaxed) != 0 { sweep() }
    guard let rows = readRows() else { return }
    // A row subscribed by a view during this loop already got the new slice.
    for entry in entries {
      entry.receive(rows[id: entry.id], shared: value)
    }
  }

  private func sweep() {
    cancellations.store(0, ordering: .relaxed)
    entries.removeAll { !$0.slot.isActive }
  }
}

/// One row: its id, the last view model it received, and its callback.
@MainActor
@usableFromInline
final class RowModelEntry<Model: RowViewModel> {
  @usableFromInline let id: Model.ID
  /// Cleared by the row's token, which may be cancelled on any thread.
  @usableFromInline nonisolated let slot: CallbackSlot<@MainActor (Model?) -> Void>
  @usableFromInline let delivery = LastDelivery<Model>()

  @usableFromInline
  init(id: Model.ID, callback: @escaping @MainActor (Model?) -> Void) {
    self.id = id
    self.slot = CallbackSlot(callback)
  }

  /// Evaluates the row and delivers its view model if it differs from the last one.
  @inlinable
  func receive(_ element: Model.Element?, shared: Model.Shared) {
    let model = element.flatMap { Model(element: $0, shared: shared) }
    if delivery.isNew(model) { slot.callback?(model) }
  }
}

/// The shared slice of a row view-model type as a view model of the state, so that the store's
/// own view-model subscription evaluates and compares it once per dispatch for every group of
/// the type.
struct SharedSlice<Model: RowViewModel>: ViewModelWithState {
  let value: Model.Shared

  init(state: Model.StateType) {
    value = Model.shared(in: state)
  }
}

/// A store's row groups, kept in the store's extension storage.
@MainActor
final class RowModelRegistry {
  struct Key: Hashable {
    let model: ObjectIdentifier
    let rows: AnyKeyPath
  }

  /// Held weakly: the rows hold their group.
  private var groups: [Key: WeakGroup] = [:]

  private final class WeakGroup {
    weak var group: AnyObject?
    init(_ group: AnyObject) { self.group = group }
  }

  /// The live group for `key`, or the one `make` creates.
  ///
  /// - Complexity: O(1), plus O(groups) when it drops released ones.
  func group<Model: RowViewModel>(
    for key: Key, make: () -> RowModelGroup<Model>
  ) -> RowModelGroup<Model> {
    if let group = groups[key]?.group as? RowModelGroup<Model> { return group }
    groups = groups.filter { $0.value.group != nil }
    let group = make()
    groups[key] = WeakGroup(group)
    return group
  }
}

extension Store {
  /// The group of `Model`'s rows in `rows`, created with its shared-slice subscription when it
  /// has no row yet.
  @usableFromInline
  func rowModelGroup<Model: RowViewModel>(
    _ type: Model.Type, rows: KeyPath<S, TrackedArray<Model.Element>>
  ) -> RowModelGroup<Model> where Model.StateType == S {
    let registryKey = ObjectIdentifier(RowModelRegistry.self)
    let registry: RowModelRegistry
    if let existing = extensionStorage[registryKey] as? RowModelRegistry {
      registry = existing
    } else {
      registry = RowModelRegistry()
      extensionStorage[registryKey] = registry
    }
    let key = RowModelRegistry.Key(model: ObjectIdentifier(Model.self), rows: rows)
    return registry.group(for: key) {
      let group = RowModelGroup<Model>(shared: Model.shared(in: state)) { [weak self] in
        self?.state[keyPath: rows]
      }
      group.sharedSubscription = subscribe(SharedSlice<Model>.self) { [weak group] slice in
        guard let group, let slice, slice.value != group.shared else { return }
        group.sharedChanged(to: slice.value)
      }
      return group
    }
  }
}
