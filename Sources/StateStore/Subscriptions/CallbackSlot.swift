import Synchronization

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
@usableFromInline
package final class _CallbackSlot<Callback: Sendable>: Sendable {
  @usableFromInline let _slot: Mutex<Callback?>

  /// Holds `callback` until ``_clear()``.
  @inlinable
  package init(_ callback: Callback) {
    _slot = Mutex(callback)
  }

  /// The callback, or `nil` once cancelled.
  ///
  /// Copying it out keeps it alive for the call.
  @inlinable
  package var callback: Callback? { _slot.withLock { $0 } }

  /// Whether the callback is still held, that is, not cancelled.
  @usableFromInline
  package var _isActive: Bool { _slot.withLock { $0 != nil } }

  /// Releases the callback, and what it captured, at once; safe from any thread.
  @usableFromInline
  package func _clear() {
    let released = _slot.withLock { callback in
      defer { callback = nil }
      return callback
    }
    // Drop the closure outside the lock: its captures' deinitializers may run arbitrary code.
    _ = released
  }
}
