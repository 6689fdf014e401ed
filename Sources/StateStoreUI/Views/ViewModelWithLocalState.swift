/// A projection of the state and of a screen's own local state, such as a text being typed or a
/// selection, that a screen renders from.
///
/// The local state is also how a view model takes a parameter: a detail screen's local state is
/// the id of what it shows, given by the screen (from the `Show` that opened it), so the app
/// state needs no "selected id" that could disagree with the screen.
///
/// The local state belongs to the screen (a ``LocalStateScreenController`` holds it, or it is
/// given to `store.connect(_:localState:)` or `store.subscribe(_:localState:_:)`): it never
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
