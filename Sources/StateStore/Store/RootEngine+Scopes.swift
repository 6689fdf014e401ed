// The root's side of its scopes: the root link their closures reach the state through, a
// scope's change in place, the handle scopes hold the root by (its lifetime proofs are on
// `withEngineCore(_:ifReleased:)`), and how an update notifies the scopes through the mirror of
// their kept slices. The handle's and the mirror's storage are in `Unchecked/`.

import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension _RootEngine {
  /// What the store's deinitializer does for its engine, as it begins: tells the scopes that
  /// the root is gone, before anything of it is destroyed (see ``_RootHandle``), and clears the
  /// update observers, whose tokens hold their entries, so that what they captured goes now.
  @usableFromInline
  func _rootIsGoing() {
    _rootReference?._isAlive = false
    for entry in _updateObservers { entry._clear() }
  }

  /// What the store's deinitializer does for its engine, as it ends: releases the state and
  /// the rest of the application's values (``_releaseContents()``), unless a scope's call is
  /// using the engine, which then releases them as it returns.
  @usableFromInline
  func _releaseUnlessLent() {
    if _rootReference?._isLendingEngine == true { return }
    _releaseContents()
  }

  /// The link scopes of the root compose, made on first use.
  ///
  /// Inlinable, as the `scope` methods that call it, so that its closures, run on every scoped
  /// dispatch, are specialised for the application's state.
  @inlinable
  func rootLink(of store: Store<S, Dependencies>) -> _ScopeLink<S> {
    if let _rootLink { return _rootLink }
    // Not a weak reference: see `RootHandle`. The store clears it as its deinitializer begins.
    // The closures that read or change the state reach this engine through it without
    // retaining anything (`RootReference.withEngine`); the others take the store from it
    // first, a strong reference held for the call.
    let root = _RootReference(store, engine: self)
    _rootReference = root
    let mirror = _scopeMirror
    let link = _ScopeLink<S>(
      rootHandle: root, path: "", name: "", origin: .bytes(0..<MemoryLayout<S>.size),
      identity: _ScopeIdentity(),
      read: { root.withEngine({ $0._currentState }, ifReleased: nil) },
      peek: { body in
        root.withEngine(
          { engine in
            engine.peekState(body)
            return true
          }, ifReleased: false)
      },
      withSlice: { origin, body in
        root.withEngine(
          { $0.applyInPlace(origin: origin, root: root, body) },
          ifReleased: .dropped(.rootReleased))
      },
      forward: { updater, admission, site in
        root.withStore(
          { store, engine in
            engine._enqueueFromScope(updater, admission: admission, site: site, store: store)
            return .applied
          }, ifReleased: .dropped(.rootReleased))
      },
      dropReason: { root._isAlive ? nil : .rootReleased },
      register: { node in
        root.withStore(
          { store, engine in engine._addScopeNode(node, store: store) }, ifReleased: ())
      },
      observersChanged: { root.store?._refreshHasObservers() }, relay: mirror._cancellations,
      isUnderElement: false,
      withRootBytes: { offset, origin, body in
        root.withEngine(
          { engine in
            engine.applyInPlace(origin: origin, root: root) {
              _ScopeLink<S>.withMutableBytes(of: &$0, at: offset, body)
            }
          }, ifReleased: .dropped(.rootReleased))
      })
    _rootLink = link
    return link
  }

  /// Applies a scope's `body` to the state at once, as `dispatch` applies an updater.
  ///
  /// Only when nothing needs the updater as a value: the root is idle and has no interceptors
  /// nor update observers. Otherwise answers `.busy`, and the scope queues a ``ScopedUpdater``.
  ///
  /// Called by the root link's closures with the root's handle and no reference to the store
  /// (see ``_RootHandle/withEngineCore(_:ifReleased:)``): a root that nothing observes is
  /// changed with no retain and release at all. What needs the store (notifying
  /// observers, draining what `body` queued) takes it from `root` first.
  @inlinable
  func applyInPlace(
    origin: _SliceOrigin, root: _RootReference<S, Dependencies>, _ body: (inout S) -> Void
  ) -> _ScopeDispatchOutcome {
    guard _appliesAtOnce else { return .busy }
    switch _afterChange.path {
    case .updaterAlone:
      applyUnobserved(from: root) { body(&_currentState) }
      return .applied
    case .notify:
      return _applyObservedInPlace(origin: origin, body, root: root)
    case .journalAlone, .recordAndNotify:
      // The journal and update observers see each updater as a value: a queued ScopedUpdater.
      return .busy
    }
  }

  /// `applyInPlace`'s path for a root with observers: the one apply path, out of line, with
  /// the store held for the whole of it.
  ///
  /// Out of line so that what is left of `applyInPlace` is small enough for the compiler to
  /// inline into the root link's closures: a scope's dispatch to a root nothing observes then
  /// makes one call less (S1: 672 → 605 instructions a dispatch, with `dispatchThroughScope`
  /// inlined into `dispatchLater`).
  @inlinable @inline(never)
  func _applyObservedInPlace(
    origin: _SliceOrigin, _ body: (inout S) -> Void, root: _RootReference<S, Dependencies>
  ) -> _ScopeDispatchOutcome {
    guard let store = root.store else { return .dropped(.rootReleased) }
    _isDispatching = true
    applyChange(
      body, origin: origin, forgetsKeptSlices: true, notifyingUpdateObservers: {}, store: store)
    endDispatch(store: store)
    return .applied
  }

  /// Calls `body` with the state's address, so that a scope copies its slice alone.
  ///
  /// An access to `currentState` beside the updater's (see the top of this file): scopes read
  /// after the updater returned or before it starts (`state` checks; notifying and queueing
  /// come after), and `body` copies bytes out, calling no code of the application's, so no
  /// dispatch can begin inside the access. A method rather than a closure, as in
  /// `Store.lookupTable(of:)`.
  @inlinable
  func peekState(_ body: (UnsafeRawPointer) -> Void) {
    _ScopeLink<S>.withAddress(of: &_currentState, body)
  }
}

extension _RootHandle {
  /// The root, or `nil` once it has begun its deinitializer.
  @inlinable
  final var root: (any _ScopeRoot)? { _isAlive ? _unownedScopeRoot : nil }

  /// Whether the root is inside an updater's `inout` access to its state, when nothing may
  /// read that state; false once the root is released.
  ///
  /// One flag of the engine's, which the handle holds, and the read calls nothing.
  @inlinable
  final var _rootIsApplyingUpdater: Bool {
    _isAlive && _core._isApplyingUpdater
  }

  /// Calls `body` with the root's engine, or answers `released` once the root has begun its
  /// deinitializer.
  ///
  /// The handle holds the engine (``_RootReference/_engine``), so the engine is alive for the
  /// call; what this method proves is that the state is too, whatever the application's code
  /// that `body` runs does:
  /// - on entry ``_isAlive`` is true, so the store has not begun its deinitializer, and the
  ///   state has not been released;
  /// - during `body` the store can lose its last reference only to the application's code
  ///   (the updater, the `deinit` of a value it replaces, a queued updater run after it); the
  ///   store's deinitializer, which runs at once on the main actor (or, released on another
  ///   thread, waits for it, and so for `body` to return), then finds ``_isLendingEngine`` set,
  ///   as it is for the whole of `body`, and leaves the state to this call, which releases it
  ///   as the outermost such call returns (a call nested in another, from the application's
  ///   code, leaves it to the outer one), with no access to the state open;
  /// - the engine's code that `body` runs touches the store only through
  ///   `RootReference.store`, which answers `nil` after the deinitializer began, never
  ///   through a reference kept across the application's code.
  /// Tests: `RootReleasedDuringScopedDispatchTests`, with updaters and a replaced value's
  /// `deinit` that release the root; `ScopeLifetimeTests`, for a scope that outlives its root.
  @inlinable @inline(__always)
  final func withEngineCore<Result>(_ body: (_EngineCore) -> Result, ifReleased released: Result)
    -> Result
  {
    guard _isAlive else { return released }
    let wasLending = _isLendingEngine
    _isLendingEngine = true
    let result = body(_core)
    _isLendingEngine = wasLending
    if !_isAlive && !wasLending { _releaseEngineContents() }
    return result
  }

  /// Applies `updater` to the slice `offset` bytes into the root's state, at once, when the
  /// root is idle and nothing observes it or intercepts its dispatches; false, having done
  /// nothing, otherwise (the scope then takes the root link's way, which handles the rest).
  ///
  /// The root's own fast path (`Store.dispatch(_:)`), made from the scope with no call through
  /// a closure and no reference counted: the same flags are checked and set around the
  /// updater's `inout` access, so the same rules hold inside it (a dispatch from the updater is
  /// queued, a read of the state stops the process), and what the updater queued runs after
  /// it, with the store held.
  ///
  /// `offset` is where the slice, of type `U.StateType`, is stored inline in the root's state
  /// (`ScopeLink.offsetInRoot`): `MemoryLayout.offset(of:)` documents that an access through
  /// the offset pointer is the same as one through the key path, and the state's memory is
  /// bound to the root's type, so to the slice's type at that offset.
  @inlinable @inline(__always)
  final func applyUnobserved<U: StateUpdater>(_ updater: U, atOffset offset: Int) -> Bool {
    withEngineCore(
      { core in
        guard core._appliesAtOnceUnobserved else { return false }
        core.applyUnobserved(from: self) {
          updater.updateState(
            &(core._stateAddress + offset).assumingMemoryBound(to: U.StateType.self).pointee)
        }
        return true
      }, ifReleased: false)
  }
}

extension _RootReference {
  /// Calls `body` with the root store, held for the call, and its engine, or answers
  /// `released` once the root has begun its deinitializer.
  @inlinable
  func withStore<Result>(
    _ body: (Store<S, Dependencies>, _RootEngine<S, Dependencies>) -> Result,
    ifReleased released: Result
  ) -> Result {
    guard let store else { return released }
    return withEngine({ body(store, $0) }, ifReleased: released)
  }

  /// The root store, or `nil` once it has begun its deinitializer.
  @inlinable
  var store: Store<S, Dependencies>? { _isAlive ? _unownedRoot : nil }

  /// Calls `body` with the root's engine, without retaining the store, or answers `released`
  /// once the root has begun its deinitializer; see ``_RootHandle/withEngineCore(_:ifReleased:)``
  /// for the proof that the engine stays alive for the call.
  @inlinable
  func withEngine<Result>(
    _ body: (_RootEngine<S, Dependencies>) -> Result, ifReleased released: Result
  ) -> Result {
    withEngineCore({ _ in body(_engine) }, ifReleased: released)
  }
}

extension _ScopeMirror {
  /// Whether the root's bytes at `range` equal the mirror's.
  @inlinable
  func matches(_ root: UnsafeRawPointer, in range: Range<Int>) -> Bool {
    memcmp(root + range.lowerBound, _bytes + range.lowerBound, range.count) == 0
  }

  /// Whether the root's bytes equal the mirror's over every member's slice.
  ///
  /// - Complexity: O(the members' bytes).
  @inlinable
  func matchesEverySpan(_ root: UnsafeRawPointer) -> Bool {
    guard matches(root, in: _firstSpan) else { return false }
    if _otherSpans.isEmpty { return true }
    for span in _otherSpans where !matches(root, in: span) { return false }
    return true
  }

  /// Sets the spans to the sorted, merged union of `ranges`.
  ///
  /// - Complexity: O(*n* log *n*) for *n* ranges.
  func setSpans(covering ranges: [Range<Int>]) {
    var spans = Self.merged(ranges)
    _firstSpan = spans.first ?? 0..<0
    if !spans.isEmpty { spans.removeFirst() }
    _otherSpans = spans
  }

  /// Copies the root's bytes at `range` into the mirror.
  @inlinable
  func take(_ root: UnsafeRawPointer, in range: Range<Int>) {
    (_bytes + range.lowerBound).copyMemory(from: root + range.lowerBound, byteCount: range.count)
  }

  /// The sorted, merged union of `ranges`.
  ///
  /// - Complexity: O(*n* log *n*) for *n* ranges.
  static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
    var merged: [Range<Int>] = []
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = merged.last, range.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    return merged
  }
}

/// How the root notifies its scopes, through the mirror of their kept slices.
extension _RootEngine {
  /// Drops the slices kept for `==` that a scoped dispatch from `origin` may change.
  ///
  /// The dispatch then changes the root's collections in place instead of copying them for a
  /// kept slice; those scopes' subscribers are evaluated, as the bytes say.
  ///
  /// - Complexity: O(scopes with observers).
  @usableFromInline
  func _forgetSlices(changedBy origin: _SliceOrigin) {
    for node in _scopeNodes where node._keepsLastSlice && origin.mayChange(node._origin) {
      node._forgetSlice()
    }
  }

  /// Registers the node of a scope that has observers, to be notified after every update.
  @usableFromInline
  func _addScopeNode(_ node: _ScopeNode, store: Store<S, Dependencies>) {
    node._mirror = _scopeMirror
    _scopeMirror._needsRebuild = true
    _scopeNodes.append(node)
    store._refreshHasObservers()
  }

  /// Lets scopes with `(old, new)` listeners keep their slice from before the update.
  @usableFromInline
  func _captureScopeSlices() {
    for node in _scopeNodes where node._keepsOldSlice { node._capture() }
  }

  /// Notifies the scopes with observers; drops those left without any.
  ///
  /// A scope in the mirror (a stored, `Equatable` slice kept for `==`) is skipped when the
  /// root's bytes at its slice still equal the kept slice's (see ``_ScopeMirror``): when all
  /// of them do, which one comparison of the mirrored bytes tells, only the scopes outside the
  /// mirror are visited. After a cancellation in any scope every scope is visited once, since
  /// a visit sweeps.
  ///
  /// - Complexity: O(the mirrored bytes + the scopes outside the mirror) when no mirrored
  ///   slice changed; otherwise O(scopes with observers, the element scopes of one array
  ///   counting as one group). Plus what each visited scope's subscribers cost when its slice
  ///   may have changed; a group costs the journal's length plus the scopes of the elements
  ///   that changed.
  @inlinable
  func notifyScopes(origin: () -> _SliceOrigin, store: Store<S, Dependencies>) {
    let mirror = _scopeMirror
    if mirror._needsRebuild { _rebuildMirror(mirror) }
    if mirror._cancellations._count.load(ordering: .relaxed) != 0 {
      mirror._cancellations._count.store(0, ordering: .relaxed)
      _refreshScopes(_scopeNodes, origin: origin(), skippingMirrored: nil, store: store)
    } else if mirror._unmirrored == 0, mirroredBytesMatch(mirror, in: nil) {
      if !_unmirroredScopeNodes.isEmpty {
        _refreshScopes(_unmirroredScopeNodes, origin: origin(), skippingMirrored: nil, store: store)
      }
    } else {
      _refreshScopes(_scopeNodes, origin: origin(), skippingMirrored: mirror, store: store)
    }
  }

  /// Refreshes `nodes`, except, with a mirror, the mirrored ones whose bytes match; copies the
  /// bytes of each member's newly kept slice into the mirror; drops the nodes left without
  /// observers.
  @usableFromInline
  func _refreshScopes(
    _ nodes: [_ScopeNode], origin: _SliceOrigin, skippingMirrored: _ScopeMirror?,
    store: Store<S, Dependencies>
  ) {
    var emptied = false
    for node in nodes {
      if let mirror = skippingMirrored, node._isMirrorMember, node._isMirrored,
        mirroredBytesMatch(mirror, in: node.mirrorRange)
      {
        continue
      }
      if !node._refresh(origin) {
        node._isActive = false
        emptied = true
      } else if node._isMirrorMember, node._holdsSlice, !node._isMirrored,
        let range = node.mirrorRange
      {
        // The scope took its slice from the root during this refresh, and the root cannot
        // change while it notifies (a dispatch from a subscriber is queued), so these bytes
        // are the kept slice's.
        _ScopeLink<S>.withAddress(of: &_currentState) { _scopeMirror.take($0, in: range) }
        node._isMirrored = true
      }
    }
    guard emptied else { return }
    // Released only after the write: see the observer lists' rule at the top of this file.
    let before = _scopeNodes
    defer { withExtendedLifetime(before) {} }
    _scopeNodes.removeAll { !$0._isActive }
    _rebuildMirror(_scopeMirror)
    store._refreshHasObservers()
  }

  /// Whether the root's bytes equal the mirror's at `range`, or over every member's slice.
  ///
  /// An access to `currentState` beside the updater's, as in `peekState(_:)`: it compares bytes
  /// and calls no code of the application's.
  ///
  /// - Complexity: O(the bytes compared).
  @inlinable
  func mirroredBytesMatch(_ mirror: _ScopeMirror, in range: Range<Int>?) -> Bool {
    var matches = false
    _ScopeLink<S>.withAddress(of: &_currentState) { root in
      matches = range.map { mirror.matches(root, in: $0) } ?? mirror.matchesEverySpan(root)
    }
    return matches
  }

  /// Sorts the scope nodes into the mirror's members and the rest.
  ///
  /// A node that joins keeps no mirrored bytes until its next refresh copies them.
  ///
  /// - Complexity: O(*n* log *n*) for *n* scopes with observers.
  @usableFromInline
  func _rebuildMirror(_ mirror: _ScopeMirror) {
    mirror._needsRebuild = false
    var ranges: [Range<Int>] = []
    var others: [_ScopeNode] = []
    var unmirrored = 0
    for node in _scopeNodes {
      let wasMember = node._isMirrorMember
      node._isMirrorMember = false
      guard let range = node.mirrorRange, node._keepsLastSlice, !node._keepsOldSlice,
        range.upperBound <= mirror._size
      else {
        node._isMirrored = false
        others.append(node)
        continue
      }
      if !wasMember { node._isMirrored = false }
      node._isMirrorMember = true
      ranges.append(range)
      if !node._isMirrored { unmirrored += 1 }
    }
    mirror.setSpans(covering: ranges)
    mirror._unmirrored = unmirrored
    // Released only after the write: a node dropped from `scopeNodes` may be the last
    // reference, and its scope's release runs the application's deinitializers.
    let before = _unmirroredScopeNodes
    defer { withExtendedLifetime(before) {} }
    _unmirroredScopeNodes = others
  }
}
