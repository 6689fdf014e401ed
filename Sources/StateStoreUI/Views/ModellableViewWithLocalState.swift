/// A view that renders a ``ViewModelWithLocalState``: the ``ModellableView`` of a screen with
/// local state.
///
/// A ``LocalStateScreenController`` keeps its `model` current: it calls
/// `update(oldModel:)` when the store's state or the controller's local state changes the model.
@MainActor
public protocol ModellableViewWithLocalState: AnyObject {
  /// The view model the view renders.
  associatedtype VM: ViewModelWithLocalState

  /// The model the view renders now; `nil` before the first update, or when
  /// `VM.init?(state:localState:)` found nothing to show.
  var model: VM? { get set }

  /// Renders `model`, which has just replaced `oldModel`.
  ///
  /// - Parameter oldModel: The model the view held before this update: `nil` the first time.
  func update(oldModel: VM?)
}

extension ModellableViewWithLocalState {
  /// Takes `model` and calls ``update(oldModel:)`` with the one it replaces: what a connection
  /// does with each delivery.
  @inlinable
  func receive(_ model: VM?) {
    let oldModel = self.model
    self.model = model
    update(oldModel: oldModel)
  }
}
