/// What an effect with a ``AnySideEffect/cancellationID`` does when another with the same
/// identifier is already running.
public enum CancellationPolicy: Sendable, Hashable {
  /// Cancels the effect in flight and runs the new one: the latest request wins.
  case cancelInFlight
  /// Keeps the effect in flight and does not run the new one: the first request wins.
  case keepInFlight
}
