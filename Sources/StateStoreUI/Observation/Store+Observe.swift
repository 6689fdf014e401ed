extension Store {
  /// An `@Observable` object whose `model` is the view model of the current state.
  ///
  /// `model` is set at once, and afterwards only when the view model differs (`!=`) from the
  /// last one: Observation tracking fires once per change of the view model and never for a
  /// dispatch that leaves it equal. Evaluations are shared with every other subscriber of the
  /// same view-model type. Releasing the object ends its subscription.
  ///
  /// ```swift
  /// let title = store.observe(TitleViewModel.self)
  /// print(title.model?.text ?? "")
  /// ```
  ///
  /// - Parameter type: The view model to observe.
  /// - Returns: The object to read the view model from.
  /// - Complexity: O(view-model types) per dispatch, plus one comparison per observed model.
  @inlinable
  public func observe<VM: ViewModelWithState>(_ type: VM.Type) -> ObservedModel<VM>
  where VM.StateType == S {
    ObservedModel(store: self)
  }
}
