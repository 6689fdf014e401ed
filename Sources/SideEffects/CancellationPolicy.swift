/// What an effect with a ``ReturningSideEffect/cancellationID`` does when another with the same
/// identifier is already running.
public enum CancellationPolicy: Sendable, Hashable {
  /// Cancels the effect in flight and runs the new one: the latest request wins.
  case cancelInFlight
  /// Keeps the effect in flight and does not run the new one: the first request wins.
  case keepInFlight
  /// Runs the new effect once every effect with the same identifier dispatched before it has
  /// finished: effects run one after another, in dispatch order.
  ///
  /// For writes that must land in order, such as two quick taps on a "favourite" star that each
  /// save a file: the file ends with the last tap's content. A queued effect counts as running
  /// (a test store's `finish()` waits for it); cancelling it before its turn ends it at once
  /// with `CancellationError`, and the effects behind it keep their order.
  case enqueue
}
