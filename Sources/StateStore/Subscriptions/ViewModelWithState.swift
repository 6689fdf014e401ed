/// A projection of the state that a screen renders from.
///
/// Subscribers of a view model hear about a change only when the projected value differs (`!=`)
/// from the last value they received. `init?(state:)` returning `nil` means "nothing to show".
public protocol ViewModelWithState: Equatable, Sendable {
  /// The state this view model is projected from.
  associatedtype StateType: State

  /// Projects `state`, or returns `nil` when there is nothing to show.
  init?(state: StateType)
}
