/// A view that renders a `ViewModelWithState` and is told, with the model it held before, each
/// time that model changes.
///
/// This is Tempura's `ViewControllerModellableView` without UIKit: a UIKit view, an AppKit view or
/// a screen of a terminal UI conforms, and `store.connect(_:)` keeps its `model`
/// current.
///
/// ```swift
/// final class CounterLabel: ModellableView {
///   var model: CounterViewModel?
///   var text = ""
///
///   func update(oldModel: CounterViewModel?) {
///     text = model.map { "\($0.value)" } ?? "–"
///   }
/// }
/// ```
///
/// `update(oldModel:)` is called after `model` has been set, so the view can compare the two
/// and redraw only what changed.
@MainActor
public protocol ModellableView: AnyObject {
  /// The view model the view renders.
  associatedtype VM: ViewModelWithState

  /// The model the view renders now; `nil` before the first update, or when
  /// `VM.init?(state:)` found nothing to show.
  var model: VM? { get set }

  /// Renders `model`, which has just replaced `oldModel`.
  ///
  /// - Parameter oldModel: The model the view held before this update: `nil` the first time.
  func update(oldModel: VM?)
}

extension ModellableView {
  /// Takes `model` and calls ``update(oldModel:)`` with the one it replaces: what a connection
  /// does with each delivery.
  @inlinable
  func receive(_ model: VM?) {
    let oldModel = self.model
    self.model = model
    update(oldModel: oldModel)
  }
}
