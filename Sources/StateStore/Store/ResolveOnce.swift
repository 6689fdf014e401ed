import Synchronization

/// Delivers one value exactly once: the first one resolved, or `whenReleased` if the object is
/// released unresolved.
///
/// An awaited dispatch hands a callback to the store's interceptor chain (and a navigation
/// request hands one on to the navigator). The store calls it only if the dispatchable reaches
/// the end of the chain; when an interceptor drops it, the store simply releases the callback.
/// Release is then the only sign of a drop, and `deinit` turns it into a value, so that whoever
/// awaits is always resumed, once.
///
/// Side effects and navigation requests both use it: one rule for every awaited dispatch.
package final class ResolveOnce<Value: Sendable>: Sendable {
  private let deliver: Mutex<(@MainActor @Sendable (Value) -> Void)?>
  private let whenReleased: Value

  /// Creates a resolver that calls `deliver` once, with `whenReleased` if nothing else comes.
  package init(
    whenReleased: Value, _ deliver: @escaping @MainActor @Sendable (Value) -> Void
  ) {
    self.deliver = Mutex(deliver)
    self.whenReleased = whenReleased
  }

  /// Delivers `value`, unless a value was already delivered.
  @MainActor
  package func resolve(_ value: Value) {
    take()?(value)
  }

  deinit {
    guard let deliver = take() else { return }
    let value = whenReleased
    // Always a hop: a deinitializer has no isolation to check (`#isolation` is nil here), and
    // the thread says nothing about the executor (main-actor jobs may run on another thread,
    // and the main thread may run code that is not on the main actor). Only a dropped dispatch
    // comes here, so the hop costs nothing on the common path.
    Task { @MainActor in deliver(value) }
  }

  private func take() -> (@MainActor @Sendable (Value) -> Void)? {
    deliver.withLock { stored in
      defer { stored = nil }
      return stored
    }
  }
}
