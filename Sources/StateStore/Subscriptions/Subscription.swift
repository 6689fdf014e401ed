import Synchronization

/// A token that keeps a listener or subscriber alive; cancelling or releasing it stops delivery.
///
/// Delivery stops at once: a listener cancelled in the middle of a notification round is not
/// called for the rest of that round. `cancel()` may be called from any thread.
public final class Subscription: Hashable, Sendable {
  private let onCancel: Mutex<(@Sendable () -> Void)?>

  /// Creates a token that runs `onCancel` once, the first time it is cancelled or released.
  public init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = Mutex(onCancel)
  }

  deinit { cancel() }

  /// Whether the token has been cancelled.
  public var isCancelled: Bool { onCancel.withLock { $0 == nil } }

  /// Stops delivery to the listener or subscriber this token keeps alive.
  ///
  /// Calling it again does nothing.
  public func cancel() {
    let action = onCancel.withLock { action in
      defer { action = nil }
      return action
    }
    action?()
  }

  /// Keeps this token alive in `set`, in the manner of Combine's `AnyCancellable.store(in:)`.
  public func store(in set: inout Set<Subscription>) {
    set.insert(self)
  }

  /// Tokens are equal only to themselves.
  public static func == (lhs: Subscription, rhs: Subscription) -> Bool { lhs === rhs }

  /// Hashes the token's identity.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
