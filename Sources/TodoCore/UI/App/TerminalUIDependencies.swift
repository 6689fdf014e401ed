import Navigation

/// What the terminal UI's store gives its side effects: the todo storage and the navigator.
///
/// Conforming to `NavigationProvider` is what lets screens write
/// `try await store.dispatch(Show("detail", context: id))`.
struct TerminalUIDependencies: NavigationProvider, Sendable {
  /// Where changes are journaled as they happen, shared with the command-line commands.
  let storage: any TodoStorage
  /// The navigator that resolves the screens' `Show` and `Hide` requests.
  let navigator: Navigator
}

/// The store the terminal UI runs on: the app's state, with navigation added to the dependencies.
typealias TerminalUIStore = Store<AppState, TerminalUIDependencies>
