/// A projection of one element of a `TrackedArray` and of a slice of the state that all rows
/// share, such as the set of favourites, that a row of a list renders from.
///
/// A row that shows a favourite star needs its element and the favourites. A row view model
/// declares both: `init?(element:shared:)` receives the element and the value of
/// ``shared(in:)``, and nothing else, so the compiler guarantees that a row reads no other part
/// of the state and the store can never miss a change that a row depends on.
///
/// ```swift
/// struct RepoRow: RowViewModel {
///   let id: Repo.ID
///   let line: String
///
///   static func shared(in state: BrowserState) -> Set<Repo.ID> { state.favourites }
///
///   init(element repo: Repo, shared favourites: Set<Repo.ID>) {
///     id = repo.id
///     line = (favourites.contains(repo.id) ? "★ " : "  ") + repo.name
///   }
/// }
/// ```
///
/// A row view model is `Identifiable` with its element's id, so that a row view, or SwiftUI's
/// `ForEach`, can tell rows apart.
///
/// Subscribe with `store.subscribe(_:to:id:_:)`, or show it in a ``ModellableRowView`` whose
/// `Row` is the row view model, connected with `store.connect(_:to:id:)`. The store keeps the
/// cost O(changed):
/// - after each update it calls ``shared(in:)`` once for all the rows of one view-model type
///   over one array, and compares the result with the last one once, not once per row;
/// - a row is evaluated when its element changes (the `TrackedArray` says which did), and
///   every row of the type is evaluated when the shared slice changes;
/// - a row is told only when its view model differs (`!=`) from the last one it received.
///
/// Keep ``shared(in:)`` cheap: it runs once per update. Returning a stored property is O(1), and
/// so is comparing an unchanged `Set` or `Array` with itself (the two share storage). A row that
/// reads only its element is a ``ModellableRowView`` of the element itself.
public protocol RowViewModel: Identifiable, Equatable, Sendable where ID: Sendable {
  /// The state the rows are projected from.
  associatedtype StateType: State
  /// The element of the `TrackedArray` that a row shows; the row has the element's id.
  associatedtype Element: Identifiable & Equatable & Sendable where Element.ID == ID
  /// The part of the state, besides the element, that every row reads.
  associatedtype Shared: Equatable & Sendable

  /// Selects the part of `state` that every row reads besides its element.
  ///
  /// - Complexity: Called once per update for all the rows of this type; keep it O(1), such
  ///   as returning a stored property.
  static func shared(in state: StateType) -> Shared

  /// Projects `element` and `shared`, or returns `nil` when there is nothing to show.
  init?(element: Element, shared: Shared)
}
