extension Store {
  /// Keeps `view.model` equal to the view model of the current state, calling
  /// `view.update(oldModel:)` at once and then each time the view model changes.
  ///
  /// - The first update happens before this method returns, with the model the view held
  ///   (`nil` for a new view) as `oldModel`; connecting a view again therefore delivers the
  ///   current model with the last one as `oldModel`.
  /// - After that the view is updated only when the view model differs (`!=`) from the last one
  ///   it received, and `oldModel` is exactly the model it held before.
  /// - The store holds the view weakly: a released view ends the connection.
  /// - Cancelling or releasing the token disconnects at once.
  ///
  /// Evaluations are shared: every connected view and every subscriber of the same view-model
  /// type costs one `init?(state:)` per state change in all.
  ///
  /// ```swift
  /// let label = CounterLabel()
  /// let connection = store.connect(label)
  /// ```
  ///
  /// - Parameter view: The view to keep current.
  /// - Returns: The token that keeps the connection alive.
  /// - Complexity: O(view-model types) per dispatch, plus one comparison per connected view.
  public func connect<V: ModellableView>(_ view: V) -> Subscription where V.VM.StateType == S {
    _ConnectionLink.connect(view, apply: { $0.receive($1) }) { deliver in
      subscribe(V.VM.self, deliver)
    }
  }

  /// Keeps `view.model` equal to the element with `id` at `rows`, calling
  /// `view.update(oldModel:)` at once and then each time that element changes.
  ///
  /// The rules of `connect(_:)` hold: an update at once, then only on a change, `oldModel`
  /// exactly the element held before, the view held weakly. `nil` means no element has `id`.
  ///
  /// ```swift
  /// let connection = store.connect(row, to: \.todos, id: todo.id)
  /// ```
  ///
  /// - Parameters:
  ///   - view: The view to keep current.
  ///   - rows: The array the element is in.
  ///   - id: The element's id.
  /// - Returns: The token that keeps the connection alive.
  /// - Complexity: O(1) to connect; per dispatch, O(elements changed + their views).
  @inlinable
  public func connect<V: ModellableRowView>(
    _ view: V, to rows: KeyPath<S, TrackedArray<V.Row>>, id: V.Row.ID
  ) -> Subscription {
    _ConnectionLink.connect(view, apply: { $0.receive($1) }) { deliver in
      subscribe(to: rows, id: id, deliver)
    }
  }
}
