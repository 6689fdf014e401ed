/// What identifies an effect for cancellation: any `Hashable & Sendable` value, such as a
/// string or an enum case; the short spelling of an effect's ``ReturningSideEffect/cancellationID``.
public typealias CancellationID = any Hashable & Sendable

/// Asynchronous work that talks to the world: loading, saving, timers, navigation.
///
/// A side effect runs off the main actor, concurrently with other effects. It reads the state,
/// dispatches updaters and other effects, and reaches the world only through the dependencies
/// the store gives it, so that tests can swap in fakes:
///
/// ```swift
/// struct LoadTodos: SideEffect {
///   func sideEffect(_ context: SideEffectContext<AppState, AppDependencies>) async throws {
///     await context.dispatch(SetLoading(true))
///     let todos = try await context.dependencies.api.todos()
///     await context.dispatch(SetTodos(todos))
///   }
/// }
///
/// try await store.dispatch(LoadTodos())  // errors reach the caller
/// store.launch(LoadTodos())              // fire and forget; errors reach onUnhandledError
/// ```
///
/// > Note: Once an effect is cancelled, the updaters it dispatches are ignored, so a stale
/// > result never overwrites a newer one.
///
/// A `SideEffect` is a ``ReturningSideEffect`` whose value is `Void`: its
/// `sideEffect(_ context:) async throws` is that protocol's requirement, and both kinds run
/// through one implementation. They differ only when the effect does not run (an interceptor
/// dropped it, or another effect with its identifier kept it from starting): an awaited
/// `SideEffect` then simply returns, where a ``ReturningSideEffect`` throws
/// ``EffectNotRunError`` because it has no value to give.
public protocol SideEffect: ReturningSideEffect where ReturnValue == Void {}

/// A side effect that hands a value back to whoever awaited it.
///
/// ```swift
/// struct CountDone: ReturningSideEffect {
///   func sideEffect(_ context: SideEffectContext<AppState, Void>) async throws -> Int {
///     await context.state.todos.filter(\.done).count
///   }
/// }
///
/// let done = try await store.dispatch(CountDone())
/// ```
public protocol ReturningSideEffect: ExecutableDispatchable {
  /// The identifier that ties this effect to others of the same kind, or `nil` (the default).
  ///
  /// While an effect with an identifier runs, a new effect with an equal identifier applies
  /// ``cancellationPolicy``: by default it cancels the one in flight (search-as-you-type). Any
  /// `Hashable & Sendable` value works; a string or an enum case is typical:
  ///
  /// ```swift
  /// var cancellationID: CancellationID? { "search" }
  /// ```
  var cancellationID: CancellationID? { get }

  /// What happens when this effect starts while another with the same identifier runs.
  var cancellationPolicy: CancellationPolicy { get }

  /// The state of the store this effect runs on.
  associatedtype StateType: State
  /// The dependencies of the store this effect runs on.
  associatedtype Dependencies: Sendable
  /// The value the effect hands back.
  associatedtype ReturnValue: Sendable

  /// Performs the effect and returns its value; a thrown error reaches whoever awaited it.
  ///
  /// For a ``SideEffect`` the value is `Void`, so its body is `async throws` alone.
  func sideEffect(_ context: SideEffectContext<StateType, Dependencies>) async throws
    -> ReturnValue
}

extension ReturningSideEffect {
  /// No identifier: the effect never cancels nor is cancelled by another.
  public var cancellationID: CancellationID? { nil }

  /// The new effect cancels the one in flight.
  public var cancellationPolicy: CancellationPolicy { .cancelInFlight }

  /// Runs this effect on `store` without awaiting it, discarding any value, as the store does
  /// for an effect that reaches it untyped (for example one dispatched by an interceptor).
  ///
  /// The effect has already been through the interceptors. Its errors, and a store whose state
  /// or dependencies do not match the effect's, are reported to `Store.onUnhandledError`.
  @MainActor
  public func _start<S: State, D: Sendable>(in store: Store<S, D>) {
    guard let typed = store as? Store<StateType, Dependencies> else {
      store.onUnhandledError(EffectStoreMismatchError(effect: self, store: store), self)
      return
    }
    _ = typed.startEffect(self, reportsErrors: true, awaitedBy: nil)
  }
}
