/// Dependencies that provide a navigator; a store whose dependencies conform can dispatch
/// ``Show``, ``Hide`` and ``Navigate`` and await them.
///
/// The requirement is main-actor isolated, like the navigator, so that a plain `Sendable`
/// struct can hold the navigator in a `let`:
///
/// ```swift
/// struct AppDependencies: NavigationProvider {
///   let navigator: Navigator
///   let files: FileClient
/// }
/// ```
public protocol NavigationProvider {
  /// The navigator that carries out this store's navigation requests.
  @MainActor var navigator: Navigator { get }
}
