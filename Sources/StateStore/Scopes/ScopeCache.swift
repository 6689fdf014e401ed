import Synchronization

/// The scopes made from a store, so that one slice and dependencies give one scope.
@usableFromInline
@MainActor
final class _ScopeCache {
  /// The scopes, by slice, dependencies and name; an entry whose scope went is dropped by the
  /// next filing.
  @usableFromInline var _table: [_ScopeKey: _WeakScope] = [:]
  /// How many times ``_table`` was written: a filing whose hashing ran code that filed scopes
  /// meanwhile starts again (see `Store._rememberScope(_:under:)`).
  @usableFromInline var _writes: UInt64 = 0

  @usableFromInline
  init() {}
}

/// A scope remembered without being kept alive.
///
/// Weak, so that the cache never hands out a scope that is going away: once a scope's last
/// strong reference is gone (its deinitializer has begun, or waits for the main actor after a
/// release on another thread), ``store`` reads `nil`, and the cache makes a new scope and files
/// it in its place. The application's code that runs while a scope is destroyed (the `deinit`
/// of a captured value, which may ask for the same scope) gets a new one. Tests:
/// `ScopeCacheLifetimeTests`.
@usableFromInline
struct _WeakScope {
  /// The scope, or `nil` once its last strong reference is gone.
  @usableFromInline weak var store: AnyObject?

  @usableFromInline
  init(_ store: AnyObject) {
    self.store = store
  }
}
