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

/// A callback that a ``Subscription`` can release from any thread: the building block of the
/// store's listeners and subscribers, and of observers in modules built on the store.
///
/// ```swift
/// let slot = CallbackSlot<@MainActor (Route, Route) -> Void>(observer)
/// observers.append(slot)
/// return Subscription { [weak slot] in slot?.clear() }   // sweep `!isActive` slots later
/// ```
///
/// Cancelling releases the callback (and everything it captured) at once, whatever the thread:
/// the store may run its main-actor code on a thread other than the process's main thread (as
/// test runners do), so the token cannot rely on reaching the store synchronously. The store
/// removes the emptied entry before its next update. Extension modules (Navigation's route
/// observers) use it for the same reason.
public final class CallbackSlot<Callback: Sendable>: Sendable {
  @usableFromInline let slot: Mutex<Callback?>

  /// Holds `callback` until ``clear()``.
  @inlinable
  public init(_ callback: Callback) {
    slot = Mutex(callback)
  }

  /// The callback, or `nil` once cancelled.
  ///
  /// Copying it out keeps it alive for the call.
  @inlinable
  public var callback: Callback? { slot.withLock { $0 } }

  /// Whether the callback is still held, that is, not cancelled.
  public var isActive: Bool { slot.withLock { $0 != nil } }

  /// Releases the callback, and what it captured, at once; safe from any thread.
  public func clear() {
    let released = slot.withLock { callback in
      defer { callback = nil }
      return callback
    }
    // Drop the closure outside the lock: its captures' deinitializers may run arbitrary code.
    _ = released
  }
}
