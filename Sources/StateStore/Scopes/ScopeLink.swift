/// How a scoped store reaches its slice of the root's state: the one object that knows the path.
///
/// Every operation is a closure composed from the parent's: a scope of a scope wraps its
/// parent's closures with one more key-path step, so each level adds the same small cost and
/// none re-reads through the levels above more than once. The closures are built in the
/// `@inlinable` `scope` methods, where the application's types are known, so they run as code
/// specialised for them.
///
/// A link holds its root without keeping it alive (see ``RootHandle``): once the root is
/// released every operation answers "released" instead of trapping.
@usableFromInline
@MainActor
package final class _ScopeLink<Sub: State> {
  // The fields a dispatch through the scope and its refresh read come first, in the object's
  // first two cache lines (`origin`, `isUnderElement`, `relay` and `withSlice` in the first):
  // with a thousand element scopes, each dispatch finds its scope's link out of the cache.
  // Swift lays a class's stored properties out in declaration order.
  /// Where the slice lies in the root's state, for skipping notifications it cannot need.
  @usableFromInline package let _origin: _SliceOrigin
  /// Whether this scope is an element scope or lies under one: its node is then notified by
  /// its element's group, through the array's change journal, rather than by the root.
  @usableFromInline let _isUnderElement: Bool
  /// The log its cancellations are also noted in: for a scope at or under an element scope, its
  /// group's, which visits only changed elements and must still sweep; elsewhere the root's
  /// ``ScopeMirror``'s, whose check skips unchanged scopes and must still sweep them.
  @usableFromInline let _relay: _CancellationLog?
  /// Applies `body` to the slice at once, when the root can do so without queueing.
  @usableFromInline let _withSlice:
    @MainActor (_ origin: _SliceOrigin, _ body: (inout Sub) -> Void) -> _ScopeDispatchOutcome
  /// The slice, or `nil` when the root is released or the scoped element removed.
  @usableFromInline let _read: @MainActor () -> Sub?
  /// The scope's path from the root, its levels joined by `/`: what an action log writes.
  @usableFromInline package let _path: String
  /// This level's name, such as `profile`.
  @usableFromInline package let _name: String
  /// Identifies this scope in the updaters it wraps.
  @usableFromInline package let _identity: _ScopeIdentity
  /// The root, referred to without a weak reference (see ``RootHandle``).
  @usableFromInline let _rootHandle: _RootHandle
  /// The root, or `nil` once it is released.
  @inlinable
  var root: (any _ScopeRoot)? { _rootHandle.root }
  /// Calls `body` with the address of the slice where the root keeps it (of a copy, for a slice
  /// below an element or a computed property); false, without calling it, when the slice is gone.
  ///
  /// At the root `body` runs inside an access to the state, so it must copy bytes out and run
  /// no code of the application's: no `==`, no hashing, no key-path getter (see `peekState`).
  /// It lets a scope copy its slice alone instead of the whole state.
  @usableFromInline let _peek: @MainActor (_ body: (UnsafeRawPointer) -> Void) -> Bool
  /// Queues a wrapped updater on the root, for when it cannot be applied at once.
  ///
  /// With no admission, each element scope on the way checks now that its element is there
  /// (reading the root's state), and the updater is queued as it is. With one (a dispatch made
  /// while the root is inside an updater, whose state must not be read then), nothing is
  /// checked on the way: the root runs the admission when the queued updater's turn comes,
  /// and drops it there if it answers false.
  @usableFromInline let _forward:
    @MainActor (any StateUpdater<Sub>, _ admission: _ScopeAdmission?) -> _ScopeDispatchOutcome
  /// Why dispatches are dropped now, or `nil` while the scope is live.
  @usableFromInline let _dropReason: @MainActor () -> ScopeDispatchDroppedError.Reason?
  /// Where a scope's node goes once the scope has observers: the root's list, or, for a scope
  /// at or under an element scope, the element's bucket in its array's ``ElementScopeGroup``.
  @usableFromInline let _register: @MainActor (_ScopeNode) -> Void
  /// Tells the root that a scope's observers changed, so that it knows what to keep.
  @usableFromInline let _observersChanged: @MainActor () -> Void
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
  /// The root link's way to change the root's bytes at once.
  ///
  /// Applies `body` to the address `offset` bytes into the root's state, when the root can
  /// apply without queueing. Shared by every link made from the root's, so that a scope whose
  /// slice is stored inline reaches the root in one call, however deep it is.
  @usableFromInline let _withRootBytes:
    @MainActor (_ offset: Int, _ origin: _SliceOrigin, _ body: (UnsafeMutableRawPointer) -> Void)
      -> _ScopeDispatchOutcome
  /// The element scopes made from this link, by the key path of their array.
  @usableFromInline var _elementScopes: [AnyKeyPath: _ElementScopeEntry] = [:]

  @usableFromInline
  init(
    rootHandle: _RootHandle, path: String, name: String, origin: _SliceOrigin,
    identity: _ScopeIdentity,
    read: @escaping @MainActor () -> Sub?,
    peek: @escaping @MainActor ((UnsafeRawPointer) -> Void) -> Bool,
    withSlice: @escaping @MainActor (_SliceOrigin, (inout Sub) -> Void) -> _ScopeDispatchOutcome,
    forward:
      @escaping @MainActor (any StateUpdater<Sub>, _ScopeAdmission?) -> _ScopeDispatchOutcome,
    dropReason: @escaping @MainActor () -> ScopeDispatchDroppedError.Reason?,
    register: @escaping @MainActor (_ScopeNode) -> Void,
    observersChanged: @escaping @MainActor () -> Void,
    relay: _CancellationLog?, isUnderElement: Bool,
    withRootBytes:
      @escaping @MainActor (Int, _SliceOrigin, (UnsafeMutableRawPointer) -> Void)
      -> _ScopeDispatchOutcome
  ) {
    self._rootHandle = rootHandle
    self._path = path
    self._name = name
    self._origin = origin
    self._identity = identity
    self._read = read
    self._peek = peek
    self._withSlice = withSlice
    self._forward = forward
    self._dropReason = dropReason
    self._register = register
    self._observersChanged = observersChanged
    self._relay = relay
    self._isUnderElement = isUnderElement
    self._withRootBytes = withRootBytes
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
      forward: { updater, admission in
        parent._forward(
          ScopedUpdater<Sub, Child>(
            scope: name, updater: updater, elementID: nil, identity: identity,
            origin: ScopedUpdater<Sub, Child>._origin(of: updater, else: origin),
            lens: { state, body in body(&state[keyPath: keyPath]) }), admission)
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
