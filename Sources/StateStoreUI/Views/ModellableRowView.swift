/// A view that renders one element of a `TrackedArray`, such as a row of a list, and is told,
/// with the model it held before, each time that model changes.
///
/// The model is the element itself, or a ``RowViewModel`` built from the element and a slice of
/// the state that all rows share. `store.connect(_:to:id:)` keeps it current through an element
/// subscription, so a thousand rows cost what the changed rows cost.
///
/// ```swift
/// final class TodoRow: ModellableRowView {
///   var model: Todo?
///   func update(oldModel: Todo?) { /* redraw the row */ }
/// }
/// ```
@MainActor
public protocol ModellableRowView: AnyObject {
  /// What the view renders: the element, or a ``RowViewModel`` of it.
  associatedtype Row: Identifiable & Equatable & Sendable where Row.ID: Sendable

  /// What the view renders now; `nil` when no element has the view's id (or, for a
  /// ``RowViewModel``, when its initializer found nothing to show).
  var model: Row? { get set }

  /// Renders `model`, which has just replaced `oldModel`.
  ///
  /// - Parameter oldModel: The model the view held before this update: `nil` the first time.
  func update(oldModel: Row?)
}

extension ModellableRowView {
  /// Takes `model` and calls ``update(oldModel:)`` with the one it replaces: what a connection
  /// does with each delivery.
  @inlinable
  func receive(_ model: Row?) {
    let oldModel = self.model
    self.model = model
    update(oldModel: oldModel)
  }
}
