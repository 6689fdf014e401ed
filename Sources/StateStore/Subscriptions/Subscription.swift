import Synchronization

/// A token that keeps a listener or subscriber alive; cancelling or releasing it stops delivery.
///
/// Delivery stops at once: a listener cancelled in the middle of a notification round is not
/// called for the rest of that round. `cancel()` may be called from any thread; from another
/// thread than the store's, a call the store had already begun when `cancel()` ran may still
/// finish, and none begins after `cancel()` has returned.
public final class Subscription: Hashable, Sendable {
  // What cancelling does, until it is done; `nil` once cancelled.
  //
  // `nonisolated(unsafe)`, proof: after initialisation exactly one caller ever touches it, the
  // one whose compare-exchange of `state` from `active` succeeds (in `cancel()`, called by
  // anyone on any thread, or by the deinitializer); it reads the action and clears it once,
  // then stores `cancelled` with release ordering. Every other caller finds `state` taken and
  // leaves the field alone, so no two accesses can race. The deinitializer, which destroys the
  // field, first loads `state` with acquire ordering: either it won the exchange itself (same
  // thread), or the winner held a reference to the token for its whole `cancel()`, so the
  // winner had finished and stored `cancelled`, and that acquiring load orders the winner's
  // write before the destruction. A lock instead would add a word and move the token into the
  // allocator's next size class (64 bytes, not 48): a sixth of a row subscriber's memory.
  nonisolated(unsafe) private var action: _CancelAction?
  /// `active`, `cancelling` or `cancelled`: who owns `action`.
  private let state = Atomic<UInt8>(Subscription.active)

  private static var active: UInt8 { 0 }
  private static var cancelling: UInt8 { 1 }
  private static var cancelled: UInt8 { 2 }

  /// Creates a token that runs `onCancel` once, the first time it is cancelled or released.
  public init(onCancel: @escaping @Sendable () -> Void) {
    self.action = .run(onCancel)
  }

  /// Creates a token that releases the subscriber at `index` in `table`: the store's row
  /// subscribers use this instead of a closure, so that a subscriber costs this token and its
  /// entry in the table, and neither a closure context nor an object of its own.
  @usableFromInline
  init(releasing index: _SubscriberIndex, from table: _SubscriberTableBase) {
    self.action = .release(index, table)
  }

  deinit {
    cancel()
    // Orders the write of whoever cancelled before this deinitializer destroys `action`.
    _ = state.load(ordering: .acquiring)
  }

  /// Whether the token has been cancelled.
  public var isCancelled: Bool { state.load(ordering: .acquiring) != Self.active }

  /// Stops delivery to the listener or subscriber this token keeps alive.
  ///
  /// Calling it again does nothing.
  public func cancel() {
    guard
      state.compareExchange(
        expected: Self.active, desired: Self.cancelling, ordering: .acquiring
      ).exchanged
    else { return }
    // Moved out rather than copied and then cleared: no retain and release of what it holds.
    let action = self.action.take()
    state.store(Self.cancelled, ordering: .releasing)
    switch action {
    case .run(let body)?: body()
    case .release(let index, let table)?: table.release(index)
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
///
/// Seventeen bytes with its `nil` (a closure has no spare bits for the case's tag), which with
/// the token's one-byte state keeps the token within the allocator's 48-byte size class.
@usableFromInline
enum _CancelAction: Sendable {
  case run(@Sendable () -> Void)
  case release(_SubscriberIndex, _SubscriberTableBase)
}

/// Counts the tokens of one store cancelled since its last sweep; tokens may be cancelled on any
/// thread, and the store sweeps the emptied entries before its next update.
@usableFromInline
package final class _CancellationLog: Sendable {
  @usableFromInline let _count = Atomic<Int>(0)
  /// Another log every cancellation is also noted in: a scope under an element scope relays to
  /// its element group's, which is notified only for changed elements and must still sweep.
  @usableFromInline let _relay: _CancellationLog?

  @usableFromInline
  package init(relayingTo relay: _CancellationLog? = nil) {
    self._relay = relay
  }

  /// Records one cancellation.
  @usableFromInline
  package func _note() {
    _count.add(1, ordering: .relaxed)
    _relay?._note()
  }
}
