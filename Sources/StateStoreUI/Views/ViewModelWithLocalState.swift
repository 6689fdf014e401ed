/// A projection of the state and of a screen's own local state, such as a text being typed or a
/// selection, that a screen renders from.
///
/// The local state belongs to the screen (a ``LocalStateScreenController`` holds it): it never
/// enters the app state, so it is never dispatched and never written to an action log.
/// `init?(state:localState:)` returning `nil` means "nothing to show".
public protocol ViewModelWithLocalState: Equatable, Sendable {
  /// The state this view model is projected from.
  associatedtype StateType: State
  /// The screen's own state.
  associatedtype LocalState: Equatable & Sendable

  /// Projects `state` and `localState`, or returns `nil` when there is nothing to show.
  init?(state: StateType, localState: LocalState)
}
