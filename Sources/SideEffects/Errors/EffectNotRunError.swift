/// The error an awaited returning effect throws when it did not run, so it has no value.
///
/// A plain ``SideEffect`` that does not run simply returns; a ``ReturningSideEffect`` cannot,
/// so its caller learns why here.
public struct EffectNotRunError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Why an effect did not run.
  public enum Reason: Sendable, Hashable {
    /// An interceptor did not pass the effect on.
    case droppedByInterceptor
    /// An interceptor passed on a different dispatchable (named here) instead of the effect.
    case replacedByInterceptor(with: String)
    /// Another effect with the same cancellation identifier was running, and the policy is
    /// ``CancellationPolicy/keepInFlight``.
    case alreadyInFlight
    /// The effect's handle was cancelled before the effect could start.
    case cancelledBeforeStart
  }

  /// The effect's type.
  public let effectType: String
  /// Why it did not run.
  public let reason: Reason

  /// Creates the error for an effect of type `effectType`.
  public init(effectType: String, reason: Reason) {
    self.effectType = effectType
    self.reason = reason
  }

  /// A readable explanation.
  public var description: String {
    switch reason {
    case .droppedByInterceptor:
      return "\(effectType) did not run: an interceptor dropped it, so it has no value to return"
    case .replacedByInterceptor(let other):
      return "\(effectType) did not run: an interceptor replaced it with \(other), "
        + "so it has no value to return"
    case .alreadyInFlight:
      return "\(effectType) did not run: an effect with the same cancellation identifier is "
        + "still running and the policy is keepInFlight"
    case .cancelledBeforeStart:
      return "\(effectType) did not run: it was cancelled before it started"
    }
  }
}

extension EffectNotRunError {
  @usableFromInline
  init(_ effect: some ReturningSideEffect, _ reason: Reason) {
    self.init(effectType: String(reflecting: type(of: effect)), reason: reason)
  }
}
