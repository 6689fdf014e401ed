/// A dispatchable that asks the navigator for a change of route: ``Show``, ``Hide``,
/// ``Navigate``, or an application's own request built on them.
///
/// Dispatched with `try await store.dispatch(_:)`, it goes through the store's interceptors and
/// the call returns when the navigator has carried out every step. Dispatched untyped (for
/// example by an interceptor), it still runs; its errors then go to
/// `Store.onUnhandledError`.
public protocol NavigationDispatchable: ExecutableDispatchable, CustomStringConvertible {
  /// What the navigator should do.
  var navigationAction: NavigationAction { get }
}

extension NavigationDispatchable {
  /// The request as written in code, such as `Show("detail")`.
  public var description: String { navigationAction.description }

  /// Starts the request on the navigator of `store`'s dependencies, without awaiting it.
  ///
  /// Reports ``NavigationError`` kind `.noNavigator` to `Store.onUnhandledError` when the
  /// dependencies do not conform to ``NavigationProvider``.
  @MainActor public func _start<S: State, D: Sendable>(in store: Store<S, D>) {
    guard let provider = store.dependencies as? any NavigationProvider else {
      store.onUnhandledError(
        NavigationError(.noNavigator, request: description, route: []), self)
      return
    }
    let navigator = provider.navigator
    navigator.mirrorRouteIfPossible(into: store)
    navigator.submit(navigationAction) { [weak store] result in
      if case .failure(let error) = result {
        store?.onUnhandledError(error, self)
      }
    }
  }
}
