import Synchronization

extension Store {
  /// A store for the feature that owns the slice at `keyPath`, with its own dependencies.
  ///
  /// The scope is a window on this store: it has no state of its own, its dispatches join the
  /// root's queue, and this store's listeners, interceptors and action log see them. Feature
  /// code gets a `Store` and cannot tell a scope from a root:
  ///
  /// ```swift
  /// let profile = app.scope(state: \.profile, dependencies: \.profile)
  /// profile.dispatch(Rename(name: "Ada"))      // app.state.profile.name == "Ada"
  /// try await profile.dispatch(SaveProfile())  // context typed to the feature
  /// ```
  ///
  /// Asking again for the same slice and dependencies while the scope is alive returns the same
  /// store, so its subscribers and running effects are shared. A scope does not keep its root
  /// alive: once the root is released, its dispatches are dropped and reported to
  /// ``onUnhandledError``.
  ///
  /// - Parameters:
  ///   - keyPath: Where the feature's state lies in this store's state.
  ///   - dependencies: Where the feature's dependencies lie in this store's dependencies.
  ///   - name: The scope's name in an action log; by default the key path's, `profile` here.
  /// - Complexity: O(1).
  @inlinable
  public func scope<Slice: State, SliceDependencies: Sendable>(
    state keyPath: any (WritableKeyPath<S, Slice> & Sendable),
    dependencies: KeyPath<Dependencies, SliceDependencies>, name: String? = nil
  ) -> Store<Slice, SliceDependencies> {
    let name = name ?? _ScopeLink<S>._name(of: keyPath)
    return scope(
      under: _ScopeKey(state: keyPath, dependencies: dependencies, element: nil, name: name)
    ) {
      Store<Slice, SliceDependencies>(
        scope: linkForScopes.child(keyPath, name: name),
        dependencies: self.dependencies[keyPath: dependencies])
    }
  }

  /// A store for the feature that owns the slice at `keyPath`, sharing this store's
  /// dependencies.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func scope<Slice: State>(
    state keyPath: any (WritableKeyPath<S, Slice> & Sendable), name: String? = nil
  ) -> Store<Slice, Dependencies> {
    scope(state: keyPath, dependencies: \.self, name: name)
  }

  /// A store for one element of a ``TrackedArray``, by id: the store of a row feature.
  ///
  /// Its state is the element. Once the element is removed, its dispatches are dropped and
  /// reported to ``onUnhandledError`` with an error naming the id; nothing traps.
  ///
  /// ```swift
  /// let row = app.scope(state: \.todos, id: todo.id, dependencies: \.row)
  /// row.dispatch(ToggleDone())
  /// ```
  ///
  /// - Complexity: O(1).
  @inlinable
  public func scope<Element: State & Identifiable, ElementDependencies: Sendable>(
    state keyPath: any (WritableKeyPath<S, TrackedArray<Element>> & Sendable), id: Element.ID,
    dependencies: KeyPath<Dependencies, ElementDependencies>, name: String? = nil
  ) -> Store<Element, ElementDependencies> where Element.ID: Sendable {
    let name = name ?? _ScopeLink<S>._name(of: keyPath)
    return scope(
      under: _ScopeKey(
        state: keyPath, dependencies: dependencies, element: AnyHashable(id), name: name)
    ) {
      Store<Element, ElementDependencies>(
        scope: linkForScopes.element(keyPath, id: id, name: name),
        dependencies: self.dependencies[keyPath: dependencies])
    }
  }

  /// A store for one element of a ``TrackedArray``, by id, sharing this store's dependencies.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func scope<Element: State & Identifiable>(
    state keyPath: any (WritableKeyPath<S, TrackedArray<Element>> & Sendable), id: Element.ID,
    name: String? = nil
  ) -> Store<Element, Dependencies> where Element.ID: Sendable {
    scope(state: keyPath, id: id, dependencies: \.self, name: name)
  }

  /// The scope kept under `key` while it is alive, or a new one from `make`, then kept: the one
  /// look-up every `scope` method makes, so that one slice and dependencies give one scope.
  ///
  /// - Complexity: O(1).
  @inlinable
  func scope<Slice: State, SliceDependencies: Sendable>(
    under key: _ScopeKey, make: () -> Store<Slice, SliceDependencies>
  ) -> Store<Slice, SliceDependencies> {
    // The look-up hashes the key and compares it with `==`, the application's code for an
    // element scope's id, which may ask for scopes itself (and release one): it runs on a copy
    // of the table, with no access to the store's open.
    let table = _scopeCache?._table
    if let cached = table?[key]?.store as? Store<Slice, SliceDependencies> {
      return cached
    }
    let scope = make()
    remember(scope, under: key)
    return scope
  }

  /// The scope's path from the root, its levels joined by `/` (`profile`, `profile/avatar`);
  /// `nil` for a root store.
  public var scopePath: String? { _runtime._scopePath }

  /// The root store this store is a window on.
  ///
  /// Itself at the root; `nil` once a scope's root is released. Navigation mirrors the route
  /// into it when a scope navigates.
  package var rootStore: AnyObject? { _runtime._root(of: self) }

  /// The link scopes of this store compose: its own as a scope, or one to itself as the root.
  @inlinable
  var linkForScopes: _ScopeLink<S> {
    // The root link is made here, where the application's types are known, so that its
    // closures are specialised for them (see `_RootEngine.rootLink(of:)`).
    _isRoot ? _rootEngine.rootLink(of: self) : _linkOfScope
  }

  /// Keeps `scope` under `key`, and gives it its node maker, specialised here.
  @inlinable
  func remember<Slice: State, SliceDependencies: Sendable>(
    _ scope: Store<Slice, SliceDependencies>, under key: _ScopeKey
  ) {
    // `scope` was just made by a `scope` method: a scope, with a link.
    let link = scope._linkOfScope
    link._makeScopeNode = Store<Slice, SliceDependencies>._nodeMaker(for: scope, link: link)
    _rememberScope(scope, under: key)
  }

  /// Files `scope` under `key`, dropping the entries of scopes that went.
  ///
  /// Filed in a copy of the table, for the reason given in `scope(under:make:)`; when the
  /// application's code that hashing runs files scopes meanwhile, the filing starts again
  /// from the table it left, so none of theirs is lost.
  @usableFromInline
  func _rememberScope(_ scope: AnyObject, under key: _ScopeKey) {
    let entry = _WeakScope(scope)
    let cache: _ScopeCache
    if let _scopeCache {
      cache = _scopeCache
    } else {
      cache = _ScopeCache()
      _scopeCache = cache
    }
    while true {
      let writes = cache._writes
      var table = cache._table.filter { $0.value.store != nil }
      table[key] = entry
      guard cache._writes == writes else { continue }
      cache._writes &+= 1
      cache._table = table
      return
    }
  }
}

extension Store: _ScopeRoot {
  @usableFromInline package var rootIsApplyingUpdater: Bool { _runtime._isInsideUpdater }

  @usableFromInline package func runAsRootCallback(_ callback: () -> Void) {
    runAsStoreCallback(callback)
  }

  @usableFromInline package func interceptFromScope(
    _ dispatchable: any Dispatchable, admission: _ScopeAdmission?,
    then perform: @escaping @MainActor (any Dispatchable) -> Bool
  ) {
    intercept(dispatchable, admission: admission, then: perform)
  }

  @usableFromInline package func reportFromScope(
    _ error: any Error, _ dispatchable: any Dispatchable
  ) {
    onUnhandledError(error, dispatchable)
  }

  @usableFromInline package var effectLogFromScope: AnyObject? { ownEffectLog }

  @usableFromInline package func attachEffectLogFromScope(_ log: AnyObject?) {
    attachOwnEffectLog(log as? any EffectLog)
  }

  @usableFromInline package func observeUpdatesFromScope(
    _ observer:
      @escaping @MainActor (any Dispatchable, DispatchCause?, UInt64, DispatchSite?)
      -> Void
  ) -> Subscription {
    observeUpdates { observer($0.updater, $0.cause, $0.sequence, $0.site) }
  }
}
