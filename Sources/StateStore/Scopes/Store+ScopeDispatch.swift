/// The scope's side: how a scoped store forwards what it is given to its root, and how the root
/// notifies it.
extension Store {
  /// Creates a scope: a store with no state of its own, reading and dispatching through `link`.
  @usableFromInline
  convenience init(scope link: ScopeLink<S>, dependencies: Dependencies) {
    // The placeholder is never read: `liveState` reads through the link.
    self.init(link: link, placeholder: S(), dependencies: dependencies)
    // The link is captured strongly: it refers to neither this store nor anything that holds
    // it, so there is no cycle, and a weak reference would give the link a side table that
    // makes every retain and release of it on the dispatch path slow.
    onUnhandledError = { [link] error, dispatchable in
      if let root = link.root {
        root.reportFromScope(error, dispatchable)
      } else {
        Self.reportWithoutRoot(error, dispatchable)
      }
    }
  }

  /// Applies `updater` to the slice at once when the root is idle, or queues it on the root.
  @inlinable
  func dispatchThroughScope<U: StateUpdater>(_ updater: U, link: ScopeLink<S>)
  where U.StateType == S {
    let outcome = link.withSlice(link.origin) { updater.updateState(&$0) }
    if case .applied = outcome { return }
    forwardThroughScope(updater, outcome: outcome, link: link)
  }

  @usableFromInline
  func forwardThroughScope(
    _ updater: any StateUpdater<S>, outcome: ScopeDispatchOutcome, link: ScopeLink<S>
  ) {
    var outcome = outcome
    if case .busy = outcome { outcome = link.forward(updater) }
    if case .dropped(let reason) = outcome { reportDropped(updater, reason: reason, link: link) }
  }

  func dispatchThroughScope(any dispatchable: any Dispatchable, link: ScopeLink<S>) {
    if let updater = dispatchable as? any StateUpdater<S> {
      forwardThroughScope(updater, outcome: .busy, link: link)
    } else {
      interceptThroughScope(dispatchable, link: link) { _ in false }
    }
  }

  /// Sends `dispatchable` through the root's interceptors; what reaches the end runs on this
  /// scope, so an effect gets the feature's context and dependencies.
  func interceptThroughScope(
    _ dispatchable: any Dispatchable, link: ScopeLink<S>,
    then perform: @escaping @MainActor (any Dispatchable) -> Bool
  ) {
    if let reason = link.dropReason() {
      reportDropped(dispatchable, reason: reason, link: link)
      return
    }
    guard let root = link.root else {
      reportDropped(dispatchable, reason: .rootReleased, link: link)
      return
    }
    root.interceptFromScope(dispatchable) { [weak self] final in
      if perform(final) { return true }
      guard let self else { return false }
      if let updater = final as? any StateUpdater<S> {
        self.forwardThroughScope(updater, outcome: .busy, link: link)
        return true
      }
      if let executable = final as? any ExecutableDispatchable {
        executable.start(in: self)
        return true
      }
      return false
    }
  }

  func reportDropped(
    _ dispatchable: any Dispatchable, reason: ScopeDispatchDroppedError.Reason,
    link: ScopeLink<S>
  ) {
    onUnhandledError(
      ScopeDispatchDroppedError(
        scope: link.path, dispatchableType: String(reflecting: type(of: dispatchable)),
        reason: reason),
      dispatchable)
  }

  /// Observes the updaters dispatched through this scope, as the root applies them.
  func observeScopedUpdates(
    link: ScopeLink<S>, _ observer: @escaping @MainActor (AppliedUpdate<S>) -> Void
  ) -> Subscription {
    guard let root = link.root else { return Subscription {} }
    let identity = link.identity
    return root.observeUpdatesFromScope { updater, cause, sequence in
      var current: any Dispatchable = updater
      while let scoped = current as? any ScopedUpdaterPlumbing {
        if scoped.scopeIdentity === identity, let inner = scoped.wrapped as? any StateUpdater<S> {
          observer(AppliedUpdate(updater: inner, cause: cause, sequence: sequence))
          return
        }
        current = scoped.wrapped
      }
    }
  }

  /// Registers this scope with its root once it has observers, and keeps the root's view of
  /// whether it listens up to date.
  func scopeObserversChanged() {
    guard let link = scopeLink, let root = link.root else { return }
    if hasObservers, ownScopeNode == nil {
      let node = ScopeNode(
        capture: { [self] in self.capturedSlice = link.read() },
        refresh: { [self] origin in self.refreshAsScope(origin: origin) })
      ownScopeNode = node
      node.keepsOldSlice = !listeners.isEmpty
      root.addScopeNode(node)
      return
    }
    ownScopeNode?.keepsOldSlice = !listeners.isEmpty
    root.refreshScopeObservers()
  }

  /// Notifies this scope's observers after an update of the root; returns false once it has
  /// none left.
  func refreshAsScope(origin: SliceOrigin) -> Bool {
    if cancellationLog.count.load(ordering: .relaxed) != 0 { sweepCancelledEntries() }
    let old = capturedSlice
    capturedSlice = nil
    guard hasObservers, let link = scopeLink else { return false }
    guard origin.mayChange(link.origin), let slice = link.read() else { return true }
    version &+= 1
    if let old, !listeners.isEmpty, !Self.isSame(old, slice) {
      for entry in listeners { entry.callback?(old, slice) }
    }
    for group in selectionOrder { group.refresh(slice, version: version) }
    for group in elementOrder { group.refresh(slice) }
    return true
  }

  /// Whether two slices are equal, when the state is `Equatable`; otherwise assumed different.
  static func isSame(_ lhs: S, _ rhs: S) -> Bool {
    guard let lhs = lhs as? any Equatable else { return false }
    return isEqual(lhs, rhs)
  }

  private static func isEqual<T: Equatable>(_ lhs: T, _ rhs: Any) -> Bool {
    (rhs as? T).map { $0 == lhs } ?? false
  }
}
