/// A compiler message that names the fix for dispatching a side effect from synchronous code.
///
/// Without it, `store.dispatch(effect)` written in a synchronous function (a habit from Katana,
/// whose `dispatch` returned a promise) is answered by an offer to make the caller `async`,
/// when `launch` is usually the answer. In a synchronous context the compiler prefers a
/// synchronous overload, so it picks this one and shows its deprecation message; in an `async`
/// context it prefers the real, asynchronous `dispatch`.
///
/// It is deprecated rather than unavailable because the compiler ranks an unavailable overload
/// below everything else, asynchronous ones included, and would never show its message. A
/// build that treats warnings as errors rejects the call; any other build gets the message and
/// an effect started as `launch` starts it.
extension Store {
  /// Starts `effect` as `launch(_:)` does, with a warning: write `launch`, or `await` the dispatch.
  @available(
    *, deprecated,
    message:
      "a side effect cannot be dispatched from synchronous code: use `launch`, or `await` the dispatch"
  )
  public func dispatch<E: ReturningSideEffect>(_ effect: E)
  where E.StateType == S, E.Dependencies == Dependencies {
    _ = launchEffect(effect, ifNotRun: { .failure($0) })
  }
}
