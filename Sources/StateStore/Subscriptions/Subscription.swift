import Synchronization

/// A token that keeps a listener or subscriber alive; cancelling or releasing it stops delivery.
///
/// Delivery stops at once: a listener cancelled in the middle of a notification round is not
/// called for the rest of that round. `cancel()` may be called from any thread.
public final class Subscription: Hashable, Sendable {
  /// What cancelling does, until it is done; `nil` once cancelled.
  private let onCancel: Mutex<CancelAction?>

  /// Creates a token that runs `onCancel` once, the first time it is cancelled or released.
  public init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = Mutex(.run(onCancel))
  }

  /// Creates a token that clears `slot` and notes it in `log`: the store's own subscribers use
  /// this instead of a closure, so that a subscriber costs two small objects, its slot and this
  /// token, and no closure context.
  @usableFromInline
  package init(clearing slot: any ClearableSlot, noting log: CancellationLog) {
    self.onCancel = Mutex(.clear(slot, log))
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
    switch action {
    case .run(let body)?: body()
    case .clear(let slot, let log)?:
      slot.clear()
      log.note()
    case nil: break
    }
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

/// What cancelling a `Subscription` does.
@usableFromInline
enum CancelAction: Sendable {
  case run(@Sendable () -> Void)
  case clear(any ClearableSlot, CancellationLog)
}

/// A subscriber's slot that a token empties on cancellation, from any thread.
@usableFromInline
package protocol ClearableSlot: AnyObject, Sendable {
  /// Releases the callback, and what it captured, at once.
  func clear()
}

/// Counts the tokens of one store cancelled since its last sweep; tokens may be cancelled on any
/// thread, and the store sweeps the emptied entries before its next update.
@usableFromInline
package final class CancellationLog: Sendable {
  @usableFromInline let count = Atomic<Int>(0)

  @usableFromInline
  package init() {}

  /// Records one cancellation.
  @usableFromInline
  package func note() {
    count.add(1, ordering: .relaxed)
  }
}
