/// Where effect bodies run: off the main actor, on the global concurrent executor.
@usableFromInline
enum _EffectExecution {
  /// Runs the body of `effect` off the main actor, once its turn has come if it waits in the
  /// lanes of `registry`; the caller binds the run's cause and identity.
  ///
  /// The body's call is the last thing here, so that returning from it does not hop back to
  /// the global executor.
  @concurrent @inlinable
  static func run<E: ReturningSideEffect>(
    _ effect: E, in context: SideEffectContext<E.StateType, E.Dependencies>,
    after registry: _EffectRegistry?, run: any _EffectRun
  ) async throws -> E.ReturnValue {
    if let registry { try await registry._waitForTurn(run) }
    return try await effect.sideEffect(context)
  }
}
