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
    let delivery = LastDelivery<VM>()
    return subscribe(StateChange<S>.self) { [weak self] _ in
      guard let self else { return }
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
    let link = ConnectionLink()
    let token = subscribe(V.VM.self, localState: localState) { [weak view] model in
      guard let view else { return link.end() }
      let oldModel = view.model
      view.model = model
      view.update(oldModel: oldModel)
    }
    link.token = token
    return token
  }
}

/// A view model of the state that is never equal to another, so that a subscription to it is
/// told of every change of the store's state, scopes included.
///
/// It is how a subscriber whose view model depends on a value of its own learns that the state
/// changed, without the costs of the other hooks: a listener makes the store keep the old state
/// for each dispatch, and a scope's `observeUpdates` reports only the updaters dispatched
/// through that scope, not a change made at the root. Only ``Store`` code above compares it,
/// with `!=`, which is all the store's subscription does.
struct StateChange<S: State>: ViewModelWithState {
  init(state: S) {}

  static func == (lhs: Self, rhs: Self) -> Bool { false }
}
