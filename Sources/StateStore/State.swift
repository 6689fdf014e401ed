/// The single value that holds everything an application knows.
///
/// A state is a value type: the store owns one, and the only way to change it is to dispatch a
/// ``StateUpdater``. `init()` builds the state an application starts from.
public protocol State: Sendable {
  /// Creates the state an application starts from.
  init()
}

/// Anything that can be sent to a ``Store``: state updaters, side effects and navigation requests.
public protocol Dispatchable: Sendable {}

/// A pure, synchronous change to the state.
///
/// An updater gets only `inout` access to the state: it cannot dispatch, await or reach the store.
///
/// ```swift
/// struct Increment: StateUpdater {
///   func updateState(_ state: inout Counter) { state.value += 1 }
/// }
/// ```
public protocol StateUpdater<StateType>: Dispatchable {
  /// The state this updater changes.
  associatedtype StateType: State

  /// Applies the change to `state` in place.
  func updateState(_ state: inout StateType)
}

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
