// The link's storage, and the scope's fields it keeps, are in
// `Unchecked/UncheckedScopeStorage.swift`.

extension _ScopeLink {
  /// The root, or `nil` once it is released.
  @inlinable
  var root: (any _ScopeRoot)? { _rootHandle.root }

  /// Where the slice starts in the root's state, when it is stored there inline; `nil` under
  /// an element or a computed key path.
  ///
  /// The origin is `.bytes` exactly when every step from the root is a stored property with an
  /// offset (`SliceOrigin.narrowed(offset:size:)`), so its start is the slice's offset.
  @inlinable
  var offsetInRoot: Int? {
    guard case .bytes(let range) = _origin else { return nil }
    return range.lowerBound
  }

  /// The entry of the element scopes of the array at `keyPath`, made on first use.
  @usableFromInline
  func _elementScopeEntry(for keyPath: AnyKeyPath) -> _ElementScopeEntry {
    if let entry = _elementScopes[keyPath] { return entry }
    let entry = _ElementScopeEntry(relay: _CancellationLog(relayingTo: _relay))
    _elementScopes[keyPath] = entry
    return entry
  }

  /// Whether the root is inside an updater; see `Store.checkNotInsideUpdater`.
  @usableFromInline
  func rootIsApplyingUpdater() -> Bool {
    root?.rootIsApplyingUpdater ?? false
  }

  /// Runs `callback` with the root marked busy, as the root runs its own subscribers' callbacks.
  @usableFromInline
  func runAsRootCallback(_ callback: () -> Void) {
    if let root { root.runAsRootCallback(callback) } else { callback() }
  }

  /// The path of a child named `name`.
  @usableFromInline
  func _childPath(_ name: String) -> String {
    _path.isEmpty ? name : _path + "/" + name
  }

  /// The scope's name for a key path: `\AppState.profile` gives `profile`.
  @usableFromInline
  static func _name(of keyPath: AnyKeyPath) -> String {
    let text = String(describing: keyPath)
    guard text.hasPrefix("\\"), let dot = text.firstIndex(of: ".") else { return text }
    return String(text[text.index(after: dot)...])
  }

  /// A scope of the slice at `keyPath` of this link's slice.
  @inlinable
  func child<Child: State>(
    _ keyPath: any (WritableKeyPath<Sub, Child> & Sendable), name: String
  ) -> _ScopeLink<Child> {
    let parent = self
    let identity = _ScopeIdentity()
    let offset = MemoryLayout<Sub>.offset(of: keyPath)
    let origin = parent._origin.narrowed(offset: offset, size: MemoryLayout<Child>.size)
    let withSlice: @MainActor (_SliceOrigin, (inout Child) -> Void) -> _ScopeDispatchOutcome
    let read: @MainActor () -> Child?
    let peek: @MainActor ((UnsafeRawPointer) -> Void) -> Bool
    if let offset {
      read = { Self.copy(Child.self, at: offset, through: parent._peek) }
      peek = { body in parent._peek { body($0 + offset) } }
      // A stored property at a fixed offset: `MemoryLayout.offset(of:)` documents that writing
      // through the offset pointer is the same as writing through the key path, which would
      // instead walk the key path's components in the runtime on every dispatch.
      withSlice = { _origin, body in
        parent._withSlice(origin) { Self.project(&$0, offset: offset, body) }
      }
    } else {
      withSlice = { _origin, body in parent._withSlice(origin) { body(&$0[keyPath: keyPath]) } }
      // A getter of the application's may run: on a copy, outside any access to the state.
      read = { parent._read()?[keyPath: keyPath] }
      peek = { body in Self.withAddress(of: read(), body) }
    }
    return _ScopeLink<Child>(
      rootHandle: _rootHandle, path: _childPath(name), name: name, origin: origin,
      identity: identity,
      read: read, peek: peek, withSlice: withSlice,
      forward: { updater, admission, site in
        parent._forward(
          ScopedUpdater<Sub, Child>(
            scope: name, updater: updater, elementID: nil, identity: identity,
            origin: ScopedUpdater<Sub, Child>._origin(of: updater, else: origin),
            lens: { state, body in body(&state[keyPath: keyPath]) }), admission, site)
      },
      dropReason: parent._dropReason, register: parent._register,
      observersChanged: parent._observersChanged, relay: parent._relay,
      isUnderElement: parent._isUnderElement, withRootBytes: parent._withRootBytes)
  }

  /// Runs `body` on the stored property at `offset` bytes into `slice`.
  ///
  /// Nonisolated so that the closure handed to `withUnsafeMutablePointer` is too: one written
  /// on the main actor gets a run-time check of the executor on every call.
  @inlinable
  nonisolated static func project<Child>(
    _ slice: inout Sub, offset: Int, _ body: (inout Child) -> Void
  ) {
    withUnsafeMutablePointer(to: &slice) { pointer in
      body(&(UnsafeMutableRawPointer(pointer) + offset).assumingMemoryBound(to: Child.self).pointee)
    }
  }

  /// A copy of the `Value` stored `offset` bytes into the slice that `peek` shows, or `nil` when
  /// the slice is gone.
  ///
  /// `MemoryLayout.offset(of:)` promises that the value sits at that offset, in memory bound to
  /// its type; the copy retains and calls nothing of the application's.
  @inlinable
  static func copy<Value>(
    _: Value.Type, at offset: Int,
    through peek: @MainActor ((UnsafeRawPointer) -> Void) -> Bool
  ) -> Value? {
    var value: Value?
    _ = peek { value = ($0 + offset).assumingMemoryBound(to: Value.self).pointee }
    return value
  }

  /// Calls `body` with the address `offset` bytes into `value`, where it is kept.
  @inlinable
  nonisolated static func withMutableBytes(
    of value: inout Sub, at offset: Int, _ body: (UnsafeMutableRawPointer) -> Void
  ) {
    withUnsafeMutablePointer(to: &value) { body(UnsafeMutableRawPointer($0) + offset) }
  }

  /// Calls `body` with the address of `value`, where it is kept.
  @inlinable
  nonisolated static func withAddress<Value>(
    of value: inout Value, _ body: (UnsafeRawPointer) -> Void
  ) {
    withUnsafePointer(to: &value) { body(UnsafeRawPointer($0)) }
  }

  /// Calls `body` with the address of a copy of `value`; false when there is no value.
  @inlinable
  nonisolated static func withAddress<Value>(
    of value: Value?, _ body: (UnsafeRawPointer) -> Void
  ) -> Bool {
    guard var value else { return false }
    withUnsafePointer(to: &value) { body(UnsafeRawPointer($0)) }
    return true
  }

}

/// A scope's runtime is its link: its answers to what a store asks its role, all through the
/// link. The store's methods they call are in `Store/Store+Dispatch.swift` ("A scope's way to
/// its root") and `Scopes/ScopeNode.swift`.
extension _ScopeLink: _StoreRuntime {
  @usableFromInline package func _liveState() -> Sub? { _read() }
  @usableFromInline package var _subscriptionVersion: UInt64 { _version }
  @usableFromInline package var _isInsideUpdater: Bool { rootIsApplyingUpdater() }
  // A scope's dispatch goes to its root first.
  @usableFromInline package var _reachesEndAtOnce: Bool { false }
  @usableFromInline package var _scopePath: String? { _path }
  @usableFromInline package func _dropReasonNow() -> ScopeDispatchDroppedError.Reason? {
    _dropReason()
  }
  @usableFromInline package func _root<D: Sendable>(
    of store: Store<Sub, D>
  ) -> (any _ScopeRoot)? { root }
  @usableFromInline package func _dispatch<D: Sendable>(
    any dispatchable: any Dispatchable, site: DispatchSite, store: Store<Sub, D>
  ) { store.dispatchThroughScope(any: dispatchable, link: self, site: site) }
  // A scope makes its own admission on the way, from this link (`interceptThroughScope`).
  @usableFromInline package func _intercept<D: Sendable>(
    _ dispatchable: any Dispatchable, admission: _ScopeAdmission?,
    then perform: @escaping @MainActor (any Dispatchable) -> Bool, store: Store<Sub, D>
  ) { store.interceptThroughScope(dispatchable, link: self, then: perform) }
  @usableFromInline package func _runAsCallback<D: Sendable>(
    _ callback: () -> Void, store: Store<Sub, D>
  ) { runAsRootCallback(callback) }
  @usableFromInline package func _observeUpdates<D: Sendable>(
    _ observer: @escaping @MainActor (AppliedUpdate<Sub>) -> Void, store: Store<Sub, D>
  ) -> Subscription { store.observeScopedUpdates(link: self, observer) }
  @usableFromInline package func _observersChanged<D: Sendable>(store: Store<Sub, D>) {
    store.scopeObserversChanged(link: self)
  }
  // A scope owns nothing of the root's: its store's own lists go with the store.
  @usableFromInline package func _storeIsGoing() {}
  @usableFromInline package func _storeIsGone() {}
}
