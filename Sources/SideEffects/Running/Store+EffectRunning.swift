extension Store {
  /// Starts `effect`, which has already been through the interceptors, and returns its task.
  ///
  /// Synchronous, so that the effect counts as running (and its cancellation identifier takes
  /// effect) before the caller's next statement. Returns `nil` when the effect's policy keeps
  /// another effect with the same identifier in flight.
  ///
  /// - Parameter reportsErrors: Whether a thrown error (other than a cancellation) goes to
  ///   ``Store/onUnhandledError``; true when nobody awaits the effect.
  func startEffect<E: AnySideEffect, R: Sendable>(
    _ effect: E, reportsErrors: Bool,
    body: @escaping @Sendable (SideEffectContext<S, Dependencies>) async throws -> R
  ) -> Task<R, any Error>? {
    let registry = EffectRegistry.of(self)
    let id = effect.cancellationID.map { AnyHashable($0) }
    if let id, let inFlight = registry.token(runningUnder: id) {
      switch effect.cancellationPolicy {
      case .cancelInFlight: registry.cancel(inFlight)
      case .keepInFlight: return nil
      }
    }
    let token = registry.makeToken()
    let cause = DispatchCause(Self.causeName(of: E.self))
    let context = SideEffectContext(store: self)
    let task = Task {
      let result: Result<R, any Error>
      do {
        result = .success(try await EffectExecution.run(body, in: context, cause: cause))
      } catch {
        result = .failure(error)
      }
      registry.end(token)
      if reportsErrors, case .failure(let error) = result, !(error is CancellationError) {
        onUnhandledError(error, effect)
      }
      return try result.get()
    }
    registry.begin(token, id: id, cancel: { task.cancel() })
    return task
  }

  /// The cause recorded with the updaters of an effect of type `type`: its name, after the
  /// cause of whatever started it (`"Outer › Inner"`).
  static func causeName(of type: Any.Type) -> String {
    let name = String(describing: type)
    guard let outer = DispatchCause.current else { return name }
    return "\(outer.name) › \(name)"
  }
}

/// Where effect bodies run: off the main actor, on the global concurrent executor.
enum EffectExecution {
  /// Runs `body` off the main actor with `cause` bound for every updater it dispatches.
  @concurrent
  static func run<S, D, R: Sendable>(
    _ body: @Sendable (SideEffectContext<S, D>) async throws -> R,
    in context: SideEffectContext<S, D>, cause: DispatchCause
  ) async throws -> R {
    try await DispatchCause.$current.withValue(cause) {
      try await body(context)
    }
  }
}
