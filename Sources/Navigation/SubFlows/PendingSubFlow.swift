import SideEffects

/// A sub-flow whose caller awaits its result.
///
/// Its caller is resumed exactly once, through `resolver`: with the result, with `nil` when the
/// sub-flow leaves the route (or this object is released with its navigator, unresolved), or
/// with an error.
@MainActor
final class PendingSubFlow {
  /// The caller's outcome: the result, `nil` for none, or an error.
  typealias Outcome = Result<(any Sendable)?, any Error>

  /// The sub-flow's first element: what the request that reached the navigator shows, which an
  /// interceptor may have changed.
  var identifier: RouteElementIdentifier
  /// The sub-flow's first routable, once shown.
  weak var anchor: (any Routable)?
  /// Whether a result has the type the caller awaits.
  let accepts: @MainActor (any Sendable) -> Bool
  /// The awaited type, for error messages.
  let expectedType: String
  var resolver: ResolveOnce<Outcome>?
  private(set) var isCancelled = false

  init<Value: Sendable>(_ identifier: RouteElementIdentifier, of type: Value.Type) {
    self.identifier = identifier
    self.accepts = { $0 is Value }
    self.expectedType = String(reflecting: Value.self)
  }

  func resolve(_ outcome: Outcome) {
    resolver?.resolve(outcome)
  }

  /// Resumes the caller with `CancellationError`, and hides the sub-flow if it is shown.
  func cancel(on navigator: Navigator) {
    guard !isCancelled else { return }
    isCancelled = true
    resolve(.failure(CancellationError()))
    guard navigator.subFlows.contains(where: { $0 === self }) else { return }
    navigator.subFlows.removeAll { $0 === self }
    guard let anchor else { return }
    navigator.queue.submit(
      { [weak anchor] navigator in
        if let anchor { navigator.removeFromRoute(anchor) }
      }, on: navigator, completion: { _ in })
  }
}
