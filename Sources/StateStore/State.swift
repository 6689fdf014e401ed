/// The single value that holds everything an application knows.
///
/// A state is a value type: the store owns one, and the only way to change it is to dispatch a
/// ``StateUpdater``. `init()` builds the state an application starts from.
public protocol State: Sendable {
  /// Creates the state an application starts from.
  init()
}
