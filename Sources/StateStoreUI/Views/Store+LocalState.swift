extension Store {
  /// Delivers `VM(state:localState:)` at once and then whenever it differs from the last value
  /// delivered: a view model with a parameter that the subscriber gives.
  ///
  /// The parameter is the subscriber's, not the app state's: a detail screen passes the id of
  /// what it shows, so its view model cannot disagree with the screen it is in.
  ///
  /// ```swift
  /// let token = store.subscribe(RepoDetail.self, localState: repo.id) { detail in
  ///   screen.render(detail)
  /// }
  /// ```
  ///
  /// `nil` means `init?(state:localState:)` found nothing to show.
  ///
  /// - Parameters:
  ///   - type: The view-model type.
  ///   - localState: The value the view model is built with, besides the state.
  ///   - onChange: Called with each new view model.
  /// - Returns: The token that keeps the subscription alive.
  /// - Complexity: Per state change, one `init?(state:localState:)` and one comparison for
  ///   this subscriber: a view model built with a subscriber's own value cannot share its
  ///   evaluation with other subscribers.
  public func subscribe<VM: ViewModelWithLocalState>(
    _ type: VM.Type, localState: VM.LocalState, _ onChange: @escaping @MainActor (VM?) -> Void
  ) -> Subscription where VM.StateType == S {
    let delivery = _LastDelivery<VM>()
    return observeStateChanges { state in
      let model = VM(state: state, localState: localState)
      if delivery.isNew(model) { onChange(model) }
    }
  }

  /// Keeps `view.model` equal to `VM(state:localState:)` for the `localState` given, calling
  /// `view.update(oldModel:)` at once and then each time that view model changes.
  ///
  /// The rules of `connect(_:)` hold: an update at once, then only on a change, `oldModel`
  /// exactly the model held before, the view held weakly. A screen whose local state changes
  /// while it is shown uses a ``LocalStateScreenController`` instead; this is for a value fixed
  /// for the connection, such as the id of what a detail screen shows.
  ///
  /// ```swift
  /// let connection = store.connect(detailView, localState: repo.id)
  /// ```
  ///
  /// - Parameters:
  ///   - view: The view to keep current.
  ///   - localState: The value the view model is built with, besides the state.
  /// - Returns: The token that keeps the connection alive.
  /// - Complexity: As `subscribe(_:localState:_:)`: one evaluation per state change.
  public func connect<V: ModellableViewWithLocalState>(
    _ view: V, localState: V.VM.LocalState
  ) -> Subscription where V.VM.StateType == S {
    _ConnectionLink.connect(view, apply: { $0.receive($1) }) { deliver in
      subscribe(V.VM.self, localState: localState, deliver)
    }
  }
}
