// The root's runtime: how a dispatch reaches the state and what runs after it. A root store
// applies updaters here; a scope's dispatches come here through its link (`Scopes/ScopeLink`).
//
// Every dispatch takes one of two ways in, and both end in the one apply path,
// `applyChange(_:origin:forgetsKeptSlices:notifyingUpdateObservers:)`:
// - applied at once: `dispatch(_:)` at the root, `applyInPlace(origin:_:)` for a scope, when
//   the root is idle, has no interceptors and (for a scope) no update observers;
// - queued: everything else goes through `enqueue(_:)`, and `drainQueue()` runs the queue
//   through the interceptors to `finish(_:cause:perform:)`.
//
// Why the unchecked accesses in this file never overlap:
// - `currentState` is modified only in `runChange(_:)`, the updater's `inout` access, and
//   every way to it sets `isDispatching` first, so a dispatch from inside the updater (or from
//   a deinitializer it runs) is queued, never nested; reads from user code check
//   `isApplyingUpdater` and stop the process (`checkNotInsideUpdater`). The store's own reads
//   (notifying, `peekState`, the mirror's comparison) happen outside the updater's access and
//   copy bytes or values, running no user code inside the access. The full proof is at the
//   declaration of `currentState`, where the compiler requires the attribute.
// - `queue` and `queueHead` are read and changed only by `enqueue(_:)` (an append) and
//   `drainQueue()` (taking one element out, then a reset), short accesses that call no user
//   code: each queued dispatchable is moved out of its slot before it runs, so the queue never
//   holds the last reference to one and no deinitializer runs inside an access.
// - The flags (`isDispatching`, `isApplyingUpdater`, `hasObservers`, `keepsOldState`,
//   `version`) are read by copy and written by assignment.

import Synchronization

extension Store {
  /// Applies `updater` to the state and notifies listeners and subscribers.
  ///
  /// Called while the store is notifying, the updater is queued and applied right after the
  /// current round; otherwise it is applied before this method returns.
  ///
  /// - Complexity: The updater's own cost, plus O(listeners + view-model types + changed
  ///   elements' subscribers) when anything observes the store.
  @inlinable
  public func dispatch<U: StateUpdater>(_ updater: U) where U.StateType == S {
    if _isDispatching || _queuesEveryDispatch {
      dispatchLater(updater)
      return
    }
    _isDispatching = true
    apply(updater, cause: observedCause())
    endDispatch()
  }

  // Disfavored so that `dispatch(SomeUpdater())` picks the typed overload: Swift otherwise
  // prefers this non-generic one, whose dynamic `as? any StateUpdater<S>` cast costs microseconds.

  /// Dispatches a dispatchable whose type is known only at run time.
  ///
  /// An updater of this store's state is applied; an ``ExecutableDispatchable`` such as a side
  /// effect is started without being awaited. A dispatchable that the store cannot run is
  /// reported to ``onUnhandledError``. Prefer the typed `dispatch` overloads: they are checked at
  /// compile time (a navigation request, for example, compiles only when the store's
  /// dependencies provide a navigator). The argument label keeps this method from silently
  /// catching calls that no typed overload accepts.
  public func dispatch(any dispatchable: any Dispatchable) {
    if let _scopeLink {
      dispatchThroughScope(any: dispatchable, link: _scopeLink)
      return
    }
    _enqueue(_QueuedDispatch(dispatchable, cause: observedCause()))
  }

  /// Whether a dispatchable sent now would reach the end of the chain at once, unchanged: the
  /// store has no interceptor, is no scope, and is not dispatching (so its queue is empty).
  @usableFromInline package var _reachesEndAtOnce: Bool {
    !_queuesEveryDispatch && !_isDispatching
  }

  /// Sends `dispatchable` through the interceptors and hands what reaches the end to `perform`.
  ///
  /// This is the hook that awaited dispatches (side effects, navigation) use: the store applies
  /// an updater itself; any other dispatchable that comes out of the chain is passed to
  /// `perform`, which returns `false` if it does not handle it (the store then starts it as an
  /// ``ExecutableDispatchable``). If an interceptor drops the dispatchable, `perform` is not
  /// called. Queued like any dispatch when the store is busy.
  package func intercept(
    _ dispatchable: any Dispatchable,
    then perform: @escaping @MainActor (_ final: any Dispatchable) -> Bool
  ) {
    if let _scopeLink {
      interceptThroughScope(dispatchable, link: _scopeLink, then: perform)
      return
    }
    _enqueue(_QueuedDispatch(dispatchable, cause: observedCause(), perform: perform))
  }

  /// The slow path of `dispatch`: a scope forwards to its root, a busy or intercepted store
  /// queues.
  ///
  /// Kept out of line so that the root's fast path stays a few instructions where it is inlined
  /// (inlining the scope's path into every dispatch made W0 three times slower); still
  /// `@inlinable`, so that it is specialised for the application's types.
  @inlinable @inline(never)
  func dispatchLater<U: StateUpdater>(_ updater: U) where U.StateType == S {
    if let _scopeLink {
      dispatchThroughScope(updater, link: _scopeLink)
    } else {
      _enqueue(_QueuedDispatch(updater: updater, cause: observedCause()))
    }
  }

  /// The one way into the queue: appends `queued` behind the dispatch in progress, or, when
  /// the store is idle, runs it through the interceptors at once.
  @usableFromInline
  func _enqueue(_ queued: _QueuedDispatch<S, Dependencies>) {
    _queue.append(queued)
    if !_isDispatching { _drainQueue() }
  }

  /// Ends a dispatch applied at once: the store is idle again, and what the dispatch queued
  /// runs now.
  @inlinable
  func endDispatch() {
    _isDispatching = false
    if _queueHead < _queue.count { _drainQueue() }
  }

  /// The cause to record with a dispatch: read only when an update observer will see it.
  @inlinable
  func observedCause() -> DispatchCause? {
    _updateObservers.isEmpty ? nil : DispatchCause.current
  }

  /// Runs the queue until it is empty, each dispatchable through the interceptors.
  @usableFromInline
  func _drainQueue() {
    guard !_isDispatching else { return }
    _isDispatching = true
    defer { _isDispatching = false }
    while _queueHead < _queue.count {
      // Moved out: released at the end of this turn, with no access to `queue` open.
      let taken = _queue[_queueHead].take()
      _queueHead += 1
      if _queueHead == _queue.count {
        _queue.removeAll(keepingCapacity: true)
        _queueHead = 0
      }
      guard let next = taken else { continue }
      if _interceptors.isEmpty {
        if let apply = next._apply {
          apply(self)
        } else {
          finish(next._dispatchable, cause: next._cause, perform: next._perform)
        }
      } else {
        runInterceptor(at: 0, next._dispatchable, cause: next._cause, perform: next._perform)
      }
    }
  }

  private func runInterceptor(
    at index: Int, _ dispatchable: any Dispatchable, cause: DispatchCause?,
    perform: (@MainActor (any Dispatchable) -> Bool)?
  ) {
    guard index < _interceptors.count else {
      finish(dispatchable, cause: cause, perform: perform)
      return
    }
    _interceptors[index].body(dispatchable, interceptorContext) { [weak self] forwarded in
      self?.runInterceptor(at: index + 1, forwarded, cause: cause, perform: perform)
    }
  }

  /// The end of the chain: apply an updater, or hand anything else to whoever runs it.
  private func finish(
    _ dispatchable: any Dispatchable, cause: DispatchCause?,
    perform: (@MainActor (any Dispatchable) -> Bool)?
  ) {
    // The plain conformance check first: casting to the constrained existential checks the
    // same-type requirement through the runtime's demangler, microseconds that every side
    // effect and navigation request ending here would pay for the answer "no".
    if dispatchable is any StateUpdater, let updater = dispatchable as? any StateUpdater<S> {
      apply(updater, cause: cause)
    } else if let perform, perform(dispatchable) {
      return
    } else if let executable = dispatchable as? any ExecutableDispatchable {
      executable._start(in: self)
    } else {
      onUnhandledError(
        UnhandledDispatchableError(typeName: String(reflecting: type(of: dispatchable))),
        dispatchable)
    }
  }

  // MARK: - The apply path

  /// Applies `updater` through the one apply path, telling update observers about it.
  @inlinable
  func apply<U: StateUpdater>(_ updater: U, cause: DispatchCause?) where U.StateType == S {
    // The apply path's first step, repeated here so that a store without observers runs the
    // updater inline wherever `dispatch` is inlined: `applyChange` is too large to be inlined
    // there, and calling it with its closures made W0's dispatch about 1.3 ns (a quarter)
    // slower.
    guard _hasObservers else {
      runChange { updater.updateState(&$0) }
      return
    }
    applyChange(
      { updater.updateState(&$0) }, origin: Self._origin(of: updater), forgetsKeptSlices: false,
      notifyingUpdateObservers: { notifyUpdateObservers(updater, cause: cause) })
  }

  /// Applies a scope's `body` to the state at once, as `dispatch` applies an updater.
  ///
  /// Only when nothing needs the updater as a value: the root is idle and has no interceptors
  /// nor update observers. Otherwise answers `.busy`, and the scope queues a ``ScopedUpdater``.
  @inlinable
  func applyInPlace(origin: _SliceOrigin, _ body: (inout S) -> Void) -> _ScopeDispatchOutcome {
    if _isDispatching || _queuesEveryDispatch || !_updateObservers.isEmpty { return .busy }
    _isDispatching = true
    applyChange(body, origin: origin, forgetsKeptSlices: true, notifyingUpdateObservers: {})
    endDispatch()
    return .applied
  }

  /// The one apply path: sweeps cancelled entries, keeps what the observers need from before
  /// the change, runs `change`, then tells, in order, the update observers, the `(old, new)`
  /// listeners, the view-model and key-path subscribers, the element subscribers and the
  /// scopes.
  ///
  /// A store with nothing observing it runs `change` alone. `origin` is the part of the state
  /// the change could touch, found only when a scope needs it (it takes a dynamic cast). With
  /// `forgetsKeptSlices` (a scope's in-place change), the slices that scopes keep for `==` and
  /// that `origin` may change are dropped first, so the change mutates in place instead of
  /// copying for them.
  @inlinable
  func applyChange(
    _ change: (inout S) -> Void, origin: @autoclosure () -> _SliceOrigin, forgetsKeptSlices: Bool,
    notifyingUpdateObservers notifyUpdateObservers: () -> Void
  ) {
    // Only a store with observers has entries to sweep, so a store without pays nothing.
    guard _hasObservers else {
      runChange(change)
      return
    }
    if _cancellationLog._count.load(ordering: .relaxed) != 0 {
      _sweepCancelledEntries()
      guard _hasObservers else {
        runChange(change)
        return
      }
    }
    if !_keepsOldState {
      if forgetsKeptSlices && _scopesKeepSlices { _forgetSlices(changedBy: origin()) }
      runChange(change)
      if !_updateObservers.isEmpty { notifyUpdateObservers() }
      notifyObservers(origin: origin())
    } else {
      // Kept only while a listener wants it: making an empty `S?` of a large state writes all
      // its bytes, so the branch above passes no `S?` at all.
      let old: S? = _listeners.isEmpty ? nil : _currentState
      _captureScopeSlices()
      if forgetsKeptSlices && _scopesKeepSlices { _forgetSlices(changedBy: origin()) }
      runChange(change)
      if !_updateObservers.isEmpty { notifyUpdateObservers() }
      if let old { notifyListeners(old: old) }
      notifyObservers(origin: origin())
    }
  }

  /// The one place where the state is modified: the change's `inout` access.
  @inlinable
  func runChange(_ change: (inout S) -> Void) {
    _isApplyingUpdater = true
    change(&_currentState)
    _isApplyingUpdater = false
    _version &+= 1
  }

  /// Calls `body` with the state's address, so that a scope copies its slice alone.
  ///
  /// An access to `currentState` beside the updater's (see the top of this file): scopes read
  /// after the updater returned or before it starts (`state` checks; notifying and queueing
  /// come after), and `body` copies bytes out, calling no code of the application's, so no
  /// dispatch can begin inside the access. A method rather than a closure, as in
  /// `lookupTable(of:)`.
  @inlinable
  func peekState(_ body: (UnsafeRawPointer) -> Void) {
    _ScopeLink<S>.withAddress(of: &_currentState, body)
  }

  /// Queues an updater that a scope wrapped, like any dispatch.
  @usableFromInline
  func _enqueueFromScope(_ updater: any StateUpdater<S>) {
    _enqueue(_QueuedDispatch(updater, cause: observedCause()))
  }

  /// Runs `callback`, a call the store makes into user code outside a dispatch (a subscriber's
  /// first value), with the store marked busy: a dispatch it makes is queued and applied after
  /// it returns, as every re-entrant dispatch is.
  @inlinable
  func runAsStoreCallback(_ callback: () -> Void) {
    if let _scopeLink {
      _scopeLink.runAsRootCallback(callback)
      return
    }
    if _isDispatching {
      callback()
      return
    }
    _isDispatching = true
    callback()
    endDispatch()
  }
}
