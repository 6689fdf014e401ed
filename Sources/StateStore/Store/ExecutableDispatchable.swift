/// A dispatchable that is not an updater and starts itself on a store: side effects, navigation.
///
/// Modules built on the store (SideEffects, Navigation) conform their dispatchables to this
/// protocol so that a dispatchable reaching the end of the interceptor chain without being awaited
/// (for example one dispatched by an interceptor) still runs. Errors go to
/// ``Store/onUnhandledError``.
public protocol ExecutableDispatchable: Dispatchable {
  /// Starts this dispatchable on `store` without awaiting it: the store's own entry point, not
  /// for applications.
  ///
  /// The store calls it once the dispatchable has been through its interceptors; a call from
  /// anywhere else would skip them, hence the underscore that keeps it out of the
  /// documentation and of completion, as the standard library does for its own plumbing.
  @MainActor func _start<S: State, D: Sendable>(in store: Store<S, D>)
}
