import Foundation

/// What became of a dispatchable sent through the interceptors.
enum InterceptOutcome<E: Sendable>: Sendable {
  /// It reached the end of the chain as this value (possibly replaced by an equal-typed one).
  case reached(E)
  /// An interceptor dropped it, or it was replaced by an updater (which the store applied).
  case dropped
  /// An interceptor replaced it with a different dispatchable, named here, which the store ran.
  case replaced(by: String)
}

/// Delivers an ``InterceptOutcome`` exactly once, and `.dropped` if the store releases the
/// interceptor callback without calling it.
///
/// The store calls the callback, synchronously or from its queue, only if the dispatchable
/// reaches the end of the chain; otherwise it releases it. Releasing is therefore the only sign
/// of a drop, and this object's `deinit` turns it into an outcome.
final class InterceptResolver<E: Sendable> {
  private var deliver: (@MainActor @Sendable (InterceptOutcome<E>) -> Void)?

  init(_ deliver: @escaping @MainActor @Sendable (InterceptOutcome<E>) -> Void) {
    self.deliver = deliver
  }

  @MainActor
  func resolve(_ outcome: InterceptOutcome<E>) {
    let deliver = self.deliver
    self.deliver = nil
    deliver?(outcome)
  }

  deinit {
    guard let deliver else { return }
    // The store releases its callbacks on the main actor; the hop only covers a store that is
    // itself released elsewhere with a dispatch still queued.
    if Thread.isMainThread {
      MainActor.assumeIsolated { deliver(.dropped) }
    } else {
      Task { @MainActor in deliver(.dropped) }
    }
  }
}

extension Store {
  /// Sends `effect` through the interceptors and calls `deliver` once with what became of it.
  ///
  /// `deliver` runs on the main actor: synchronously when the store is idle, or while the store
  /// drains its queue when the dispatch was queued.
  func sendThroughInterceptors<E: AnySideEffect>(
    _ effect: E, deliver: @escaping @MainActor @Sendable (InterceptOutcome<E>) -> Void
  ) {
    let resolver = InterceptResolver<E>(deliver)
    intercept(effect) { final in
      if let typed = final as? E {
        resolver.resolve(.reached(typed))
        return true
      }
      resolver.resolve(.replaced(by: String(reflecting: type(of: final))))
      return false
    }
  }
}
