/// What became of a dispatchable sent through the interceptors.
@usableFromInline
package enum _InterceptOutcome<Final: Sendable>: Sendable {
  /// It reached the end of the chain as this value (possibly replaced by one of the kind the
  /// sender expects).
  case reached(Final)
  /// An interceptor dropped it, or it was replaced by an updater (which the store applied).
  case dropped
  /// An interceptor replaced it with a different dispatchable, named here, which the store ran.
  case replaced(by: String)
}

extension Store {
  /// Sends `dispatchable` through the interceptors and calls `deliver` once with what became of
  /// it: the first step of every awaited or launched effect (SideEffects) and of every navigation
  /// request (Navigation), which call it directly.
  ///
  /// `deliver` runs on the main actor: synchronously when the store is idle, or while the store
  /// drains its queue when the dispatch was queued. What leaves the chain is handed to `deliver`
  /// when `expecting` recognises it; anything else is started by the store, as an untyped
  /// dispatch would be.
  package func sendThroughInterceptors<Final: Sendable>(
    _ dispatchable: any Dispatchable,
    expecting recognise: @escaping @MainActor (any Dispatchable) -> Final?,
    deliver: @escaping @MainActor @Sendable (_InterceptOutcome<Final>) -> Void
  ) {
    // Nothing can drop, replace or delay it: deliver it without a queued dispatch and a
    // resolver, which cost a launched effect more than its task does. (An updater, even one
    // that is also an effect, is applied by the store, as the end of the chain does.)
    if _reachesEndAtOnce, !(dispatchable is any StateUpdater),
      let recognised = recognise(dispatchable)
    {
      deliver(.reached(recognised))
      return
    }
    let resolver = ResolveOnce<_InterceptOutcome<Final>>(whenReleased: .dropped, deliver)
    intercept(dispatchable) { final in
      if let recognised = recognise(final) {
        resolver.resolve(.reached(recognised))
        return true
      }
      resolver.resolve(.replaced(by: String(reflecting: type(of: final))))
      return false
    }
  }
}
