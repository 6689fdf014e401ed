/// One connected row view per element of a `TrackedArray`, by id: views are made and connected
/// as ids appear, and disconnected and dropped as they go.
///
/// A list screen keeps one of these instead of diffing ids by hand:
///
/// ```swift
/// let rows = RowConnections(store: store, rows: \.todos) { id in RowView() }
/// rows.orderedViews(in: store.state.todos)   // one view per todo, in order, each kept current
/// ```
///
/// - Each view is connected with `store.connect(_:to:id:)`: it gets its element at once and
///   then each change of it.
/// - After an update, only the ids the array's change journal names are looked at: adding or
///   removing rows costs the changed ids, not the whole list. (Past the journal's 32 entries
///   between two updates, all ids are compared once.)
/// - The connections hold the store weakly, as every screen-side object does; releasing this
///   object, or ``cancel()``, disconnects every row.
@MainActor
public final class RowConnections<View: ModellableRowView> {
  /// The view of each id in the array, connected.
  public private(set) var views: [View.Row.ID: View] = [:]
  private var connections: [View.Row.ID: Subscription] = [:]
  private var observation: Subscription?
  private var stamp: UInt64?
  private let makeView: @MainActor (View.Row.ID) -> View
  private let connect: @MainActor (View, View.Row.ID) -> Subscription
  private let removed: @MainActor (View.Row.ID, View) -> Void

  /// Connects a view for each element of `rows` now, and keeps one per element from now on.
  ///
  /// - Parameters:
  ///   - store: The store (or scope) whose state holds the array; not kept alive.
  ///   - rows: The array.
  ///   - makeView: Makes the view of a new id; called once per id that appears.
  ///   - removed: Called with each id that leaves the array and its view, after it is
  ///     disconnected, to take the view off the screen.
  /// - Complexity: O(n) for the first pass; then per update, O(ids the update changed).
  public init<S: State, D: Sendable>(
    store: Store<S, D>, rows: KeyPath<S, TrackedArray<View.Row>>,
    makeView: @escaping @MainActor (View.Row.ID) -> View,
    removed: @escaping @MainActor (View.Row.ID, View) -> Void = { _, _ in }
  ) {
    self.makeView = makeView
    self.removed = removed
    self.connect = { [weak store] view, id in
      store?.connect(view, to: rows, id: id) ?? Subscription {}
    }
    observation = store.observeStateChanges { [weak self] state in
      self?.follow(state[keyPath: rows])
    }
  }

  /// The views in the array's current order.
  ///
  /// - Complexity: O(n) for n elements.
  public func orderedViews(in array: TrackedArray<View.Row>) -> [View] {
    array.compactMap { views[$0.id] }
  }

  /// Disconnects every row and stops following the array; the views stay in ``views``.
  public func cancel() {
    observation?.cancel()
    observation = nil
    for connection in connections.values { connection.cancel() }
    connections.removeAll()
  }

  /// Brings the views in line with `array`, looking only at the ids changed since last time.
  private func follow(_ array: TrackedArray<View.Row>) {
    if let stamp {
      var touched: [View.Row.ID] = []
      if array.visitChanges(since: stamp, { touched.append($0) }) {
        for id in touched { reconcile(id, in: array) }
        self.stamp = array.currentStamp
        return
      }
    }
    // First pass, or the journal no longer reaches back: compare every id once.
    for id in Array(views.keys) where !array.contains(id: id) { reconcile(id, in: array) }
    for element in array where views[element.id] == nil { reconcile(element.id, in: array) }
    stamp = array.currentStamp
  }

  /// Adds the view of `id` if the array holds it and it has none, or drops it if not.
  private func reconcile(_ id: View.Row.ID, in array: TrackedArray<View.Row>) {
    let isPresent = array.contains(id: id)
    if isPresent, views[id] == nil {
      let view = makeView(id)
      views[id] = view
      connections[id] = connect(view, id)
    } else if !isPresent, let view = views.removeValue(forKey: id) {
      connections.removeValue(forKey: id)?.cancel()
      removed(id, view)
    }
  }
}
