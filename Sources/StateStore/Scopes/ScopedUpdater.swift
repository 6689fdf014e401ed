/// An updater dispatched through a scope, as the root store's interceptors, update observers
/// and action log see it: the feature's updater and the scope it came through.
///
/// ```swift
/// let logger = StoreInterceptor<AppState> { dispatchable, context, next in
///   if let scoped = dispatchable as? any ScopedUpdaterProtocol {
///     print(scoped.scopePath, type(of: scoped.innermostUpdater))  // ["profile"] Rename
///   }
///   next(dispatchable)
/// }
/// ```
///
/// A scope of a scope wraps twice: the outer updater's ``updater`` is itself a
/// `ScopedUpdater`. ``ScopedUpdaterProtocol/scopePath`` and ``ScopedUpdaterProtocol/innermostUpdater``
/// look through every level.
///
/// An interceptor may pass it on, drop it or replace it like any updater. Applying it applies
/// the wrapped updater to the slice in place; for an element scope whose element is gone it
/// changes nothing.
public struct ScopedUpdater<Parent: State, Slice: State>: StateUpdater, ScopedUpdaterProtocol,
  _ScopedUpdaterPlumbing
{
  /// The scope's name at this level, such as `profile` (for an element scope, the array's).
  public let scope: String
  /// The updater the feature dispatched (or, for a scope of a scope, the next level's wrapper).
  public let updater: any StateUpdater<Slice>
  /// For an element scope, the id of the element.
  public let elementID: (any Hashable & Sendable)?
  package let identity: _ScopeIdentity?
  package let origin: _SliceOrigin
  package let lens: @Sendable (inout Parent, (inout Slice) -> Void) -> Void

  @usableFromInline
  package init(
    scope: String, updater: any StateUpdater<Slice>, elementID: (any Hashable & Sendable)?,
    identity: _ScopeIdentity?, origin: _SliceOrigin,
    lens: @escaping @Sendable (inout Parent, (inout Slice) -> Void) -> Void
  ) {
    self.scope = scope
    self.updater = updater
    self.elementID = elementID
    self.identity = identity
    self.origin = origin
    self.lens = lens
  }

  /// Wraps `updater` for the slice at `keyPath`, as a replayed log does.
  package init(
    scope: String, keyPath: any (WritableKeyPath<Parent, Slice> & Sendable),
    updater: any StateUpdater<Slice>
  ) {
    self.init(
      scope: scope, updater: updater, elementID: nil, identity: nil, origin: .everything,
      lens: { state, body in body(&state[keyPath: keyPath]) })
  }

  /// Applies the wrapped updater to the slice, in place.
  public func updateState(_ state: inout Parent) {
    let updater = self.updater
    lens(&state) { updater.updateState(&$0) }
  }

  /// ``updater``, as ``ScopedUpdaterProtocol`` gives it to code that does not know `Slice`.
  public var wrapped: any Dispatchable { updater }

  /// The origin of the innermost wrapper in `updater`, or `fallback`.
  @usableFromInline
  static func _origin(of updater: any StateUpdater<Slice>, else fallback: _SliceOrigin)
    -> _SliceOrigin
  {
    guard let scoped = updater as? any _ScopedUpdaterPlumbing, fallback.range != nil else {
      return fallback
    }
    return scoped.scopedOrigin
  }

  @usableFromInline package var scopedOrigin: _SliceOrigin { origin }
  @usableFromInline package var scopeIdentity: _ScopeIdentity? { identity }
}

/// What every ``ScopedUpdater`` offers, whatever its types: for interceptors and tools that look
/// at updaters without knowing the feature.
///
/// Named as the standard library names `IteratorProtocol` beside its iterators: the protocol of
/// the one generic type that conforms to it.
public protocol ScopedUpdaterProtocol: Dispatchable {
  /// The scope's name at this level.
  var scope: String { get }
  /// The wrapped updater.
  var wrapped: any Dispatchable { get }
  /// For an element scope, the id of the element.
  var elementID: (any Hashable & Sendable)? { get }
}

/// What the store reads from a ``ScopedUpdater`` to notify and to find the scope it came from.
@usableFromInline
package protocol _ScopedUpdaterPlumbing: ScopedUpdaterProtocol {
  /// Where the slice lies in the root's state.
  var scopedOrigin: _SliceOrigin { get }
  /// The scope that dispatched it, if a live scope did.
  var scopeIdentity: _ScopeIdentity? { get }
}

extension ScopedUpdaterProtocol {
  /// The name of every level, outermost first: `["profile", "avatar"]`.
  ///
  /// - Complexity: O(levels).
  public var scopePath: [String] {
    var names = [scope]
    var current = wrapped
    while let inner = current as? any ScopedUpdaterProtocol {
      names.append(inner.scope)
      current = inner.wrapped
    }
    return names
  }

  /// The updater the feature dispatched, below every level of scope.
  ///
  /// - Complexity: O(levels).
  public var innermostUpdater: any Dispatchable {
    var current = wrapped
    while let inner = current as? any ScopedUpdaterProtocol { current = inner.wrapped }
    return current
  }
}
