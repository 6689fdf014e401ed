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
