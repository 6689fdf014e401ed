/// A view that renders one element of a `TrackedArray`, such as a row of a list, and is told,
/// with the element it held before, each time that element changes.
///
/// `store.connect(_:to:id:)` keeps its `model` current through an element
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
  /// The element the view renders.
  associatedtype Row: Identifiable & Equatable & Sendable where Row.ID: Sendable

  /// The element the view renders now; `nil` when no element has the view's id.
  var model: Row? { get set }

  /// Renders `model`, which has just replaced `oldModel`.
  ///
  /// - Parameter oldModel: The element the view held before this update: `nil` the first time.
  func update(oldModel: Row?)
}
