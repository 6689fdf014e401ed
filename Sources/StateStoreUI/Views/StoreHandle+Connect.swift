extension StoreHandle {
  /// Keeps `view.model` equal to the view model of the current state, as `Store.connect(_:)`
  /// does, through the handle a screen holds.
  ///
  /// The connection keeps working while its token lives, as one made on the store does; the
  /// handle does not keep the store alive. When the store is already released, nothing is
  /// connected and a runtime warning names this line, once.
  ///
  /// - Parameters:
  ///   - view: The view to keep current.
  ///   - fileID: Where the connection is made, named by the warning of a released store.
  ///   - line: Where the connection is made, as for `fileID`.
  /// - Returns: The token that keeps the connection alive.
  /// - Complexity: As `Store.connect(_:)`.
  public func connect<V: ModellableView>(
    _ view: V, fileID: String = #fileID, line: Int = #line
  ) -> Subscription where V.VM.StateType == S {
    guard let store else {
      RuntimeWarning.storeReleased("A connection", state: S.self, fileID: fileID, line: line)
      return Subscription {}
    }
    return store.connect(view)
  }

  /// Keeps a row view's model equal to the element with `id` at `rows`, as
  /// `Store.connect(_:to:id:)` does, through the handle a screen holds.
  ///
  /// When the store is already released, nothing is connected and a runtime warning names
  /// this line, once.
  ///
  /// - Complexity: As `Store.connect(_:to:id:)`.
  public func connect<V: ModellableRowView>(
    _ view: V, to rows: KeyPath<S, TrackedArray<V.Row>>, id: V.Row.ID,
    fileID: String = #fileID, line: Int = #line
  ) -> Subscription {
    guard let store else {
      RuntimeWarning.storeReleased("A row connection", state: S.self, fileID: fileID, line: line)
      return Subscription {}
    }
    return store.connect(view, to: rows, id: id)
  }

  /// An `@Observable` object whose `model` is the view model of the current state, as
  /// `Store.observe(_:)` returns, through the handle a screen holds.
  ///
  /// When the store is already released, the object's `model` stays `nil` and a runtime
  /// warning names this line, once.
  ///
  /// - Complexity: As `Store.observe(_:)`.
  @inlinable
  public func observe<VM: ViewModelWithState>(
    _ type: VM.Type, fileID: String = #fileID, line: Int = #line
  ) -> ObservedModel<VM> where VM.StateType == S {
    guard let store else { return Self._releasedStoreModel(type, fileID: fileID, line: line) }
    // Inlinable, so that the model's subscription is specialised, as `Store.observe(_:)` is.
    return store.observe(type)
  }

  /// A model that stays `nil`, after a runtime warning that the store is released.
  @usableFromInline
  static func _releasedStoreModel<VM: ViewModelWithState>(
    _ type: VM.Type, fileID: String, line: Int
  ) -> ObservedModel<VM> {
    RuntimeWarning.storeReleased("An observed model", state: S.self, fileID: fileID, line: line)
    return ObservedModel()
  }
}
