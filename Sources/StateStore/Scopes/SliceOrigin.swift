import Synchronization

/// The identity of one scope, carried by the updaters it wraps.
@usableFromInline
package final class _ScopeIdentity: Sendable {
  @usableFromInline
  init() {}
}

/// What a dispatch queued through a scope while its root was inside an updater runs when its
/// turn comes, before the interceptors: true to go on, false (having reported it) to drop it.
@usableFromInline
package typealias _ScopeAdmission = @MainActor () -> Bool

/// What became of an updater a scope tried to apply at once.
@usableFromInline
package enum _ScopeDispatchOutcome {
  /// Applied and notified.
  case applied
  /// The root is busy, has interceptors or update observers: the updater must be queued.
  case busy
  /// The root is released, or the scoped element removed.
  case dropped(ScopeDispatchDroppedError.Reason)
}

/// The part of the root's state an update could have changed, as a range of bytes.
///
/// A slice reached by stored properties only lies at a fixed offset of the root
/// (`MemoryLayout.offset(of:)`); a scope whose range does not overlap the range of the scope
/// that dispatched cannot have changed, and its subscribers are skipped. Anything else
/// (a computed property on the way, a root updater) is `everything`.
@usableFromInline
package enum _SliceOrigin: Sendable {
  case everything
  case bytes(Range<Int>)
  /// Somewhere in the elements of the `TrackedArray` whose own bytes in the root are these:
  /// an element scope, or a scope under one.
  ///
  /// An element lives in the array's heap buffer, so an offset inside it says nothing about
  /// the root's bytes: a child of an element scope keeps this origin rather than narrowing it.
  /// Which element changed is then read from the array's change journal.
  case elements(of: Range<Int>)

  /// The origin of a child at `offset` (nil when not a stored property) of `size` bytes.
  @inlinable
  func narrowed(offset: Int?, size: Int) -> _SliceOrigin {
    switch self {
    case .everything, .elements: return self
    case .bytes(let range):
      guard let offset else { return .everything }
      let start = range.lowerBound + offset
      return .bytes(start..<(start + size))
    }
  }

  /// The origin of the elements of the array whose origin this is.
  @inlinable
  var enclosingElements: _SliceOrigin {
    guard case .bytes(let range) = self else { return self }
    return .elements(of: range)
  }

  /// The root's bytes the slice lies in, or `nil` when it could be anywhere.
  @inlinable
  var range: Range<Int>? {
    switch self {
    case .everything: return nil
    case .bytes(let range), .elements(of: let range): return range
    }
  }

  /// Whether an update from `self` may have changed the slice at `other`.
  @inlinable
  func mayChange(_ other: _SliceOrigin) -> Bool {
    guard let mine = range, let theirs = other.range else { return true }
    return mine.overlaps(theirs)
  }
}

/// What a scope asks of its root, whatever the root's state type.
@usableFromInline
@MainActor
package protocol _ScopeRoot: AnyObject {
  var rootIsApplyingUpdater: Bool { get }
  func runAsRootCallback(_ callback: () -> Void)
  func interceptFromScope(
    _ dispatchable: any Dispatchable, admission: _ScopeAdmission?,
    then perform: @escaping @MainActor (any Dispatchable) -> Bool)
  func reportFromScope(_ error: any Error, _ dispatchable: any Dispatchable)
  /// The root's ``EffectLog``, for a scope's effects.
  var effectLogFromScope: AnyObject? { get }
  /// Attaches `log`, an ``EffectLog``, to the root, for a scope.
  func attachEffectLogFromScope(_ log: AnyObject?)
  func observeUpdatesFromScope(
    _ observer:
      @escaping @MainActor (any Dispatchable, DispatchCause?, UInt64, DispatchSite?)
      -> Void
  ) -> Subscription
}

/// Where a store keeps the scopes made from it, so one slice gives one scope.
@usableFromInline
struct _ScopeKey: Hashable {
  let state: AnyKeyPath
  let dependencies: AnyKeyPath?
  let element: AnyHashable?
  let name: String

  @usableFromInline
  init(state: AnyKeyPath, dependencies: AnyKeyPath?, element: AnyHashable?, name: String) {
    self.state = state
    self.dependencies = dependencies
    self.element = element
    self.name = name
  }
}
