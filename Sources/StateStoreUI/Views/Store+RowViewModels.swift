extension Store {
  /// Delivers the row view model of the element with `id` at once, and then only when it
  /// differs from the last one delivered.
  ///
  /// The row is evaluated, `Model(element:shared:)`, when its element changes or when
  /// `Model.shared(in:)` returns a value that differs from the last dispatch's; see
  /// ``RowViewModel``. `nil` means no element has `id`, or `init?(element:shared:)` found
  /// nothing to show.
  ///
  /// ```swift
  /// let token = store.subscribe(RepoRow.self, to: \.repos, id: repo.id) { row in
  ///   cell.render(row)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: The row view-model type.
  ///   - rows: The array the element is in.
  ///   - id: The element's id.
  ///   - onChange: Called with each new view model.
  /// - Returns: The token that keeps the subscription alive.
  /// - Complexity: O(1) to subscribe. Per dispatch: one `Model.shared(in:)` and one comparison
  ///   of its result for all the rows of the type, plus one evaluation per row of a changed
  ///   element; when the shared slice changes, one evaluation per row of the type.
  @inlinable
  public func subscribe<Model: RowViewModel>(
    _ type: Model.Type, to rows: KeyPath<S, TrackedArray<Model.Element>>, id: Model.ID,
    _ onChange: @escaping @MainActor (Model?) -> Void
  ) -> Subscription where Model.StateType == S {
    let group = rowModelGroup(Model.self, rows: rows)
    let entry = _RowModelEntry<Model>(id: id, callback: onChange)
    group._add(entry)
    // The element subscription holds the group, so the group lives exactly as long as a row.
    let elementSubscription = subscribe(to: rows, id: id) { [group, entry] element in
      entry.receive(element, shared: group._shared)
    }
    return group._token(for: entry, elementSubscription: elementSubscription)
  }

  /// Keeps `view.model` equal to the row view model of the element with `id` at `rows`,
  /// calling `view.update(oldModel:)` at once and then each time that view model changes.
  ///
  /// The rules of `connect(_:)` hold: an update at once, then only on a change, `oldModel`
  /// exactly the model held before, the view held weakly. The view's `Row` is a
  /// ``RowViewModel``, evaluated as `subscribe(_:to:id:_:)` describes.
  ///
  /// ```swift
  /// let connection = store.connect(repoRowView, to: \.repos, id: repo.id)
  /// ```
  ///
  /// - Parameters:
  ///   - view: The view to keep current.
  ///   - rows: The array the element is in.
  ///   - id: The element's id.
  /// - Returns: The token that keeps the connection alive.
  /// - Complexity: As `subscribe(_:to:id:_:)`: O(1) to connect; per dispatch, one shared
  ///   comparison per row view-model type, plus the rows of changed elements, or every row of
  ///   the type when the shared slice changed.
  @inlinable
  public func connect<V: ModellableRowView>(
    _ view: V, to rows: KeyPath<S, TrackedArray<V.Row.Element>>, id: V.Row.ID
  ) -> Subscription where V.Row: RowViewModel, V.Row.StateType == S {
    _ConnectionLink.connect(view, apply: { $0.receive($1) }) { deliver in
      subscribe(V.Row.self, to: rows, id: id, deliver)
    }
  }
}
