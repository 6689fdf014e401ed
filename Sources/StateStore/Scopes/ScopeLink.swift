/// How a scoped store reaches its slice of the root's state: the one object that knows the path.
///
/// Every operation is a closure composed from the parent's: a scope of a scope wraps its
/// parent's closures with one more key-path step, so each level adds the same small cost and
/// none re-reads through the levels above more than once. The closures are built in the
/// `@inlinable` `scope` methods, where the application's types are known, so they run as code
/// specialised for them.
///
/// A link holds its root without keeping it alive (see ``_RootHandle``): once the root is
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
  /// ``_ScopeMirror``'s, whose check skips unchanged scopes and must still sweep them.
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
  /// The root, referred to without a weak reference (see ``_RootHandle``).
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
  /// at or under an element scope, the element's bucket in its array's ``_ElementScopeGroup``.
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

  /// A scope of the element with `id` of the tracked array at `keyPath` of this link's slice.
  @inlinable
  func element<Element: State & Identifiable>(
    _ keyPath: any (WritableKeyPath<Sub, TrackedArray<Element>> & Sendable), id: Element.ID,
    name: String
  ) -> _ScopeLink<Element> where Element.ID: Sendable {
    let parent = self
    let identity = _ScopeIdentity()
    // The element lives in the array's buffer, not at any offset of the root: the element
    // scope and every scope under it carry the array's bytes, which scopes of its children
    // never narrow (see `SliceOrigin.elements`).
    let origin = parent._origin.narrowed(
      offset: MemoryLayout<Sub>.offset(of: keyPath),
      size: MemoryLayout<TrackedArray<Element>>.size
    ).enclosingElements
    let entry = parent._elementScopeEntry(for: keyPath)
    let arrayOffset = MemoryLayout<Sub>.offset(of: keyPath)
    // Calls its body with the address of the array where its parent keeps it, when the array
    // is stored inline (see `ArrayPeek`).
    let peekArray: _ArrayPeek<Element>?
    if let offset = arrayOffset, let parentOffset = parent.offsetInRoot {
      peekArray = _ArrayPeek(root: parent._rootHandle, offset: parentOffset + offset, peek: nil)
    } else if let offset = arrayOffset {
      peekArray = _ArrayPeek(root: nil, offset: offset, peek: parent._peek)
    } else {
      peekArray = nil
    }
    let lens: @Sendable (inout Sub, (inout Element) -> Void) -> Void
    if let offset = arrayOffset {
      // At the array's offset, as `child` projects a stored property: applying the key path
      // walks its components in the runtime, twice (the look-up and the change).
      lens = { state, body in
        Self.project(&state, offset: offset) { (array: inout TrackedArray<Element>) in
          if let position = array.index(id: id) { array.modify(at: position, body) }
        }
      }
    } else {
      lens = { state, body in
        if let position = state[keyPath: keyPath].index(id: id) {
          state[keyPath: keyPath].modify(at: position, body)
        }
      }
    }
    // Everything the element scope's closures need, in one object that each of them captures
    // alone, so that it is their context: a dispatch and its notification fetch this object
    // rather than one context per closure.
    let access = _ElementAccess(
      parent: parent, keyPath: keyPath, id: id, entry: entry, arrayOffset: arrayOffset,
      peekArray: peekArray, lens: lens)
    return _ScopeLink<Element>(
      rootHandle: _rootHandle, path: _childPath(name), name: name, origin: origin,
      identity: identity,
      read: { [access] in access.read() },
      peek: { [access] body in Self.withAddress(of: access.read(), body) },
      withSlice: { [access] origin, body in access.withSlice(origin, body) },
      forward: { [access] updater, admission in
        // With an admission, the root may be inside an updater: checked in the queued turn.
        if admission == nil, let reason = access.dropReason() { return .dropped(reason) }
        return parent._forward(
          ScopedUpdater<Sub, Element>(
            scope: name, updater: updater, elementID: id, identity: identity,
            origin: ScopedUpdater<Sub, Element>._origin(of: updater, else: origin), lens: lens),
          admission)
      },
      dropReason: { [access] in access.dropReason() },
      register: { [access] node in
        entry.register(
          node, id: id, place: access, origin: origin, read: { [access] in access.readArray() },
          peek: peekArray, registerGroup: parent._register)
      },
      observersChanged: parent._observersChanged, relay: entry._relay, isUnderElement: true,
      withRootBytes: parent._withRootBytes)
  }
}

/// How an element scope reaches its element: where it was last found (``_ElementPlace``), and
/// the ways to read it, check it and change it, as methods of one object that the scope's
/// closures capture alone.
@usableFromInline
@MainActor
final class _ElementAccess<Sub: State, Element: State & Identifiable>: _ElementPlace
where Element.ID: Sendable {
  @usableFromInline let _parent: _ScopeLink<Sub>
  @usableFromInline let _keyPath: any (WritableKeyPath<Sub, TrackedArray<Element>> & Sendable)
  @usableFromInline let _id: Element.ID
  @usableFromInline let _entry: _ElementScopeEntry
  /// The array's offset in the parent's slice, when it is a stored property.
  @usableFromInline let _arrayOffset: Int?
  @usableFromInline let _peekArray: _ArrayPeek<Element>?
  /// Applies a change to the element by id, as a queued `ScopedUpdater` does.
  @usableFromInline let _lens: @Sendable (inout Sub, (inout Element) -> Void) -> Void

  @inlinable
  init(
    parent: _ScopeLink<Sub>,
    keyPath: any (WritableKeyPath<Sub, TrackedArray<Element>> & Sendable), id: Element.ID,
    entry: _ElementScopeEntry, arrayOffset: Int?, peekArray: _ArrayPeek<Element>?,
    lens: @escaping @Sendable (inout Sub, (inout Element) -> Void) -> Void
  ) {
    self._parent = parent
    self._keyPath = keyPath
    self._id = id
    self._entry = entry
    self._arrayOffset = arrayOffset
    self._peekArray = peekArray
    self._lens = lens
    super.init()
  }

  /// A copy of the array (its buffers retained, nothing else); the look-up by id, which hashes
  /// with the application's code, runs on the copy.
  @inlinable
  func readArray() -> TrackedArray<Element>? {
    if let _arrayOffset, _peekArray != nil {
      return _ScopeLink<Sub>.copy(
        TrackedArray<Element>.self, at: _arrayOffset, through: _parent._peek)
    }
    return _parent._read()?[keyPath: _keyPath]
  }

  /// The slow way: a copy of the array, looked up by id; remembers where the element is.
  @inlinable
  func find() -> Element? {
    guard let array = readArray(), let position = array.index(id: _id) else {
      _known = nil
      return nil
    }
    _known = _ElementPlace._Known(layout: array._layoutStamp, position: position)
    return array._storage[position]
  }

  /// Whether the element is where it was last found, read in place.
  @inlinable
  func isAtKnownPlace(_ known: _ElementPlace._Known) -> Bool {
    var isThere = false
    _peekArray?.callAsFunction { isThere = _ScopeLink<Sub>.holds($0, known) }
    return isThere
  }

  /// The element: read in place where it was last found while the array keeps that layout,
  /// with no copy of the array and no code of the application's; otherwise looked up.
  @inlinable
  func read() -> Element? {
    var element: Element?
    if let known = _known {
      _peekArray?.callAsFunction { array in
        if _ScopeLink<Sub>.holds(array, known) {
          element = array.pointee._storage[known._position]
        }
      }
    }
    return element ?? find()
  }

  /// Why a dispatch through the element scope is dropped now, or `nil`.
  @inlinable
  func dropReason() -> ScopeDispatchDroppedError.Reason? {
    if let reason = _parent._dropReason() { return reason }
    if let known = _known, isAtKnownPlace(known) { return nil }
    if find() != nil { return nil }
    return .elementRemoved(id: String(describing: _id))
  }

  /// Applies `body` to the element at once when the root can, through the parent.
  ///
  /// The element where it was last found, in an array stored inline, whose scopes are filed:
  /// the change is made there and leaves its group a hint (see ``_ScopeBucket``), with the
  /// element's presence read once (`dropReason()` spelled out).
  ///
  /// While the root is inside an updater (a dispatch from an id's `==` or a `deinit` that the
  /// updater runs), answers `.busy` having read nothing of the root's state: the scope then
  /// queues the dispatch, and its element is looked up in its turn (see
  /// `Store._forwardThroughScope`). An array stored inline in the root is read in place only
  /// after checking that flag (`ArrayPeek`), and its parent's drop reason reads nothing, so
  /// the fast path's own checks stay as they were; an array reached any other way is checked
  /// for the flag first, as its parent's `dropReason` and `peek` read the root's state.
  @inlinable
  func withSlice(_ origin: _SliceOrigin, _ body: (inout Element) -> Void)
    -> _ScopeDispatchOutcome
  {
    if let arrayOffset = _arrayOffset, let known = _known, let bucket = _bucket,
      bucket._isFiled, let group = _entry._group,
      _peekArray?._root != nil || !_parent._rootHandle._rootIsApplyingUpdater,
      _parent._dropReason() == nil, isAtKnownPlace(known)
    {
      group.noteDispatch(into: bucket)
      let id = _id
      return _parent._withSlice(origin) { state in
        _ScopeLink<Sub>.project(&state, offset: arrayOffset) {
          (array: inout TrackedArray<Element>) in
          _ScopeLink<Sub>.modify(&array, id: id, knownAt: known, body, noting: bucket)
        }
      }
    }
    if _parent._rootHandle._rootIsApplyingUpdater { return .busy }
    if let reason = dropReason() { return .dropped(reason) }
    let lens = _lens
    return _parent._withSlice(origin) { lens(&$0, body) }
  }
}

/// How an element scope reaches the array its element lies in, in place: two integers and the
/// stamps are copied out through it, and its body runs no code of the application's.
@usableFromInline
struct _ArrayPeek<Element: Identifiable & Sendable> where Element.ID: Sendable {
  /// The root, when the array is stored inline in the root's state, `offset` bytes in.
  @usableFromInline let _root: _RootHandle?
  @usableFromInline let _offset: Int
  /// The parent's `peek`, otherwise: the array is `offset` bytes into the parent's slice.
  @usableFromInline let _peek: (@MainActor ((UnsafeRawPointer) -> Void) -> Bool)?

  @inlinable
  init(
    root: _RootHandle?, offset: Int, peek: (@MainActor ((UnsafeRawPointer) -> Void) -> Bool)?
  ) {
    self._root = root
    self._offset = offset
    self._peek = peek
  }

  /// Calls `body` with the array's address, unless the array is gone; at the root, not while
  /// an updater holds the state.
  ///
  /// At the root, straight at its state, in one call that retains nothing, rather than down
  /// the parents' `peek` closures: an inline offset from the root is known only where every
  /// step from the root is a stored property, so the array is a `TrackedArray<Element>` at
  /// that address, in memory bound to its type (see `RootHandle.applyUnobserved`). As in
  /// `peekState`, `body` copies values out and runs no code of the application's; and it is
  /// not called while an updater holds the state (a dispatch smuggled into the updater's code,
  /// by an id's `==`, say): the element scope's dispatch then reads nothing more and is queued
  /// (see `ElementAccess.withSlice`).
  @inlinable @MainActor
  func callAsFunction(_ body: (UnsafePointer<TrackedArray<Element>>) -> Void) {
    if let _root {
      let offset = _offset
      _root.withEngineCore(
        { core in
          guard !core._isApplyingUpdater else { return }
          body(
            UnsafePointer(
              (core._stateAddress + offset).assumingMemoryBound(to: TrackedArray<Element>.self)))
        }, ifReleased: ())
    } else if let _peek {
      let offset = _offset
      _ = _peek { body(($0 + offset).assumingMemoryBound(to: TrackedArray<Element>.self)) }
    }
  }
}

extension _ScopeLink {
  /// Whether `array` still has the layout in which the element was found at `known`.
  @inlinable
  static func holds<Element: Identifiable & Sendable>(
    _ array: UnsafePointer<TrackedArray<Element>>, _ known: _ElementPlace._Known
  ) -> Bool where Element.ID: Sendable {
    array.pointee._layoutStamp == known._layout && known._position < array.pointee._storage.count
  }

  /// Applies `body` to the element with `id` of `array` in place, and records in `bucket` the
  /// array's stamps around the change when the change notes that element alone.
  ///
  /// The element is taken at the position where it was last found (`known`) while the array
  /// keeps the layout it was found in, without hashing the id; otherwise it is looked up.
  /// Runs inside the updater's access to the root's state, as the element scope's lens does:
  /// the id's `hash(into:)` and `==` and the updater are the application's code, under the
  /// same rules as any updater (see the top of `RootEngine.swift`); the stamps are plain
  /// values written into the bucket, which the caller holds.
  @inlinable
  static func modify<Element: Identifiable & Sendable>(
    _ array: inout TrackedArray<Element>, id: Element.ID, knownAt known: _ElementPlace._Known?,
    _ body: (inout Element) -> Void, noting bucket: _ScopeBucket
  ) where Element.ID: Sendable {
    let position: Int
    if let known, array._layoutStamp == known._layout, known._position < array._storage.count {
      position = known._position
    } else if let found = array.index(id: id) {
      position = found
    } else {
      return
    }
    let from = array._stamp
    let layout = array._layoutStamp
    array.modify(at: position, body)
    // Same layout: the id did not change, so `modify` noted this element once, and nothing
    // else changed the array meanwhile (the updater has the element alone).
    guard array._layoutStamp == layout else { return }
    bucket._hintFrom = from
    bucket._hintTo = array._stamp
  }
}

/// A scope's way to its root: what a scoped store does with what it is given.
extension Store {
  /// Applies `updater` to the slice at once when the root is idle, or queues it on the root.
  ///
  /// A slice stored inline in the root's state is changed at its address there, in one call to
  /// the root; any other goes down the links' chain of `withSlice` closures.
  ///
  /// Always inlined into its one caller, `dispatchLater`, itself out of line: one call less
  /// on every scoped dispatch.
  @inlinable @inline(__always)
  func dispatchThroughScope<U: StateUpdater>(_ updater: U, link: _ScopeLink<S>)
  where U.StateType == S {
    let outcome: _ScopeDispatchOutcome
    if let offset = link.offsetInRoot {
      if link._rootHandle.applyUnobserved(updater, atOffset: offset) { return }
      // `offsetInRoot` is set only where every step from the root is a stored property with
      // an offset, and `MemoryLayout.offset(of:)` documents that an access through the offset
      // pointer is the same as one through the key path: the slice is a `S` at that address,
      // in memory bound to its type (as `project(_:offset:_:)` relies on).
      outcome = link._withRootBytes(offset, link._origin) { bytes in
        updater.updateState(&bytes.assumingMemoryBound(to: S.self).pointee)
      }
    } else {
      outcome = link._withSlice(link._origin) { updater.updateState(&$0) }
    }
    if case .applied = outcome { return }
    _forwardThroughScope(updater, outcome: outcome, link: link)
  }

  /// Queues `updater` on the root when `outcome` says it is busy; reports it when dropped.
  ///
  /// While the root is inside an updater's access to its state (the dispatch comes from an
  /// id's `==`, a `hash(into:)` or a `deinit` that the updater runs), nothing may read that
  /// state (see the top of `RootEngine.swift`): the updater is queued unchecked, with an
  /// admission that looks the scope's element up, and reports the dispatch as dropped if it is
  /// gone, when its turn comes, after the access has ended.
  @usableFromInline
  func _forwardThroughScope(
    _ updater: any StateUpdater<S>, outcome: _ScopeDispatchOutcome, link: _ScopeLink<S>
  ) {
    var outcome = outcome
    if case .busy = outcome {
      let admission =
        link._rootHandle._rootIsApplyingUpdater ? _admission(of: updater, link: link) : nil
      outcome = link._forward(updater, admission)
    }
    if case .dropped(let reason) = outcome { reportDropped(updater, reason: reason, link: link) }
  }

  /// What a dispatch through this scope made while the root is inside an updater runs when its
  /// turn comes: whether the scope's slice is still there, reporting the dispatch as dropped
  /// otherwise.
  ///
  /// Holds this scope until then, so that the report goes to its ``onUnhandledError`` as it
  /// would have at once.
  func _admission(of dispatchable: any Dispatchable, link: _ScopeLink<S>) -> _ScopeAdmission {
    { [self] in
      guard let reason = link._dropReason() else { return true }
      reportDropped(dispatchable, reason: reason, link: link)
      return false
    }
  }

  func dispatchThroughScope(any dispatchable: any Dispatchable, link: _ScopeLink<S>) {
    if let updater = dispatchable as? any StateUpdater<S> {
      _forwardThroughScope(updater, outcome: .busy, link: link)
    } else {
      interceptThroughScope(dispatchable, link: link) { _ in false }
    }
  }

  /// Sends `dispatchable` through the root's interceptors; what reaches the end runs on this
  /// scope, so an effect gets the feature's context and dependencies.
  func interceptThroughScope(
    _ dispatchable: any Dispatchable, link: _ScopeLink<S>,
    then perform: @escaping @MainActor (any Dispatchable) -> Bool
  ) {
    // Inside the root's updater, checked in the queued turn (see `_forwardThroughScope`).
    var admission: _ScopeAdmission?
    if link._rootHandle._rootIsApplyingUpdater {
      admission = _admission(of: dispatchable, link: link)
    } else if let reason = link._dropReason() {
      reportDropped(dispatchable, reason: reason, link: link)
      return
    }
    guard let root = link.root else {
      reportDropped(dispatchable, reason: .rootReleased, link: link)
      return
    }
    root.interceptFromScope(dispatchable, admission: admission) { [weak self] final in
      if perform(final) { return true }
      guard let self else { return false }
      if let updater = final as? any StateUpdater<S> {
        self._forwardThroughScope(updater, outcome: .busy, link: link)
        return true
      }
      if let executable = final as? any ExecutableDispatchable {
        executable._start(in: self)
        return true
      }
      return false
    }
  }

  func reportDropped(
    _ dispatchable: any Dispatchable, reason: ScopeDispatchDroppedError.Reason,
    link: _ScopeLink<S>
  ) {
    onUnhandledError(
      ScopeDispatchDroppedError(
        scope: link._path, dispatchableType: String(reflecting: type(of: dispatchable)),
        reason: reason),
      dispatchable)
  }
}

/// Where an element scope's element was last found in its array, and in which layout of it.
///
/// A `TrackedArray`'s layout stamp changes with every insertion, removal, move and change of an
/// identifier, and stamps are never reused, so while the array in the root carries the stamp
/// the element was found under, the element is still at that position. Reading it there takes
/// no copy of the array and runs none of the application's code (no `==`, no `hash(into:)`),
/// so it can be done in place, inside the root's access to its state.
@usableFromInline
@MainActor
class _ElementPlace {
  /// A position and the layout it holds in.
  @usableFromInline
  struct _Known {
    @usableFromInline let _layout: UInt64
    @usableFromInline let _position: Int

    @inlinable
    init(layout: UInt64, position: Int) {
      self._layout = layout
      self._position = position
    }
  }

  /// Where the element was last found; `nil` before the first look-up and once it is gone.
  // Unchecked: two integers (no reference, nothing to release), read by copy and written by
  // assignment, on the main actor; no access to it spans a call. Test: `ElementPlaceTests`.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _known: _Known?
  /// The bucket the element's scopes were last filed in by their ``_ElementScopeGroup``, which a
  /// dispatch through the element scope tells which element it changed.
  // Unchecked: read by copy, and written only by `remember(_:)`, a swap whose released value
  // is dropped after the access, on the main actor. A bucket off its group's table holds no
  // node, so even that release runs no code of the application's. Test:
  // `ElementScopeDispatchTests`.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _bucket: _ScopeBucket?

  @inlinable
  init() {}

  /// Remembers `bucket`, the one the element's scopes are filed in now.
  @inlinable
  final func remember(_ bucket: _ScopeBucket) {
    guard _bucket !== bucket else { return }
    var previous: _ScopeBucket? = bucket
    // Swapped, not assigned: the bucket it held is released after the access, as `previous`
    // goes.
    swap(&_bucket, &previous)
  }
}

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
  func observeUpdatesFromScope(
    _ observer: @escaping @MainActor (any Dispatchable, DispatchCause?, UInt64) -> Void
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

/// A root store as its scopes refer to it: without keeping it alive, and without a weak
/// reference.
///
/// A weak reference gives the root a side table, and then every retain and release of the
/// root, on every dispatch, takes the runtime's slow path; each read of it also costs a
/// load-and-retain of its own. Instead the root holds this object, its scopes' links hold it
/// too, and the root's `isolated deinit` clears ``_isAlive`` before anything of the root is
/// destroyed.
///
/// Proof that ``_unownedScopeRoot`` (and `RootReference`'s `unownedRoot`) is never read after
/// the root is freed:
/// - it is read only through ``root``, on the main actor, and only while ``_isAlive`` is true;
/// - ``_isAlive`` is cleared by the root's deinitializer, which is isolated to the main actor,
///   as its first statement, so on the main actor no code runs between the end of the
///   deinitializer and the root's memory being freed, and none after it sees `true`;
/// - when the root's last reference goes on another thread, its deinitializer waits for the
///   main actor, and until it has run the root's memory is not freed: main-actor code that
///   reaches the root meanwhile finds a whole store, still with `isAlive` true (the runtime
///   lets a retain and its release happen on an object whose deinitializer is pending);
/// - the application's code that the root's destruction runs (the `deinit` of a value in its
///   state, of an effect, of an interceptor), which may dispatch through a scope, runs after
///   ``_isAlive`` was cleared, so it finds the root released and the dispatch is reported as
///   dropped, as `ScopeLifetimeTests` checks with such a hostile deinitializer.
@usableFromInline
@MainActor
class _RootHandle {
  /// Whether the root has not begun its deinitializer.
  // Unchecked: read on every scoped dispatch. It is written once, by the root's deinitializer,
  // and read by plain loads; every access is on the main actor and runs no code, so no two
  // can overlap.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _isAlive = true
  // Unchecked lifetime: see the type's comment.
  @usableFromInline final unowned(unsafe) let _unownedScopeRoot: any _ScopeRoot
  /// The root's engine, not retained: the store owns it (a constant field), so it lives at
  /// least as long as the store; read only through ``withEngineCore(_:ifReleased:)``.
  @usableFromInline final let _unretainedCore: Unmanaged<_EngineCore>
  /// The root's engine, kept alive by its store's deinitializer when the store goes in the
  /// middle of a call that uses the engine through ``_unretainedCore`` (``_isLendingEngine``),
  /// until that call has returned.
  ///
  /// ``withEngineCore(_:ifReleased:)`` runs a scope's change on the engine read from
  /// ``_unretainedCore``, a reference that does not keep it alive. The change runs the
  /// application's code (the updater, the `deinit` of a value it replaces, a queued updater
  /// run after it), which may release the root's last reference: the store's deinitializer
  /// then finds the engine lent and hands it here, so the engine, its state and its flags
  /// outlive the store until the outermost such call returns and lets it go. Only then, with
  /// no access open, is the state destroyed (and the deinitializers of its values run).
  /// Nothing else sets it, so it holds the engine for the length of one call.
  // Unchecked: written by the root's deinitializer and by `withEngineCore` after its call, by
  // plain assignments on the main actor; the release of the engine runs after the write.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _survivingEngine: AnyObject?
  /// Whether a call of ``withEngineCore(_:ifReleased:)`` is running: the store's
  /// deinitializer then hands its engine to ``_survivingEngine``.
  // Unchecked: a flag, read by copy and written by assignment on the main actor.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline final var _isLendingEngine = false

  @usableFromInline
  init(_ root: any _ScopeRoot, engine: _EngineCore) {
    _unownedScopeRoot = root
    _unretainedCore = .passUnretained(engine)
  }

  /// The root, or `nil` once it has begun its deinitializer.
  @inlinable
  final var root: (any _ScopeRoot)? { _isAlive ? _unownedScopeRoot : nil }

  /// Whether the root is inside an updater's `inout` access to its state, when nothing may
  /// read that state; false once the root is released.
  ///
  /// One flag, read through ``_unretainedCore``: the store holds the engine while ``_isAlive`` is
  /// true, and the read calls nothing.
  @inlinable
  final var _rootIsApplyingUpdater: Bool {
    _isAlive && _withUnretained(_unretainedCore) { $0._isApplyingUpdater }
  }

  /// Calls `body` with the root's engine, read from ``_unretainedCore``, without retaining the
  /// store, or answers `released` once the root has begun its deinitializer.
  ///
  /// Proof that the engine is alive for the whole of `body`, whatever the application's code
  /// that `body` runs does:
  /// - on entry ``_isAlive`` is true, so the store has not begun its deinitializer and holds
  ///   the engine in a constant field: the engine is alive;
  /// - during `body` the store can lose its last reference only to the application's code, or
  ///   to the release of a strong reference that `body` took and that code made the last one;
  ///   then the store's deinitializer, which runs at once on the main actor (or, released on
  ///   another thread, waits for it, and so for `body` to return), finds ``_isLendingEngine``
  ///   set, as it is for the whole of `body`, and hands the engine to ``_survivingEngine``:
  ///   this handle, alive for the call because the caller holds it (a link's constant field,
  ///   or the link's closure that is running), keeps it alive until the outermost such call
  ///   returns (a call nested in another, from the application's code, leaves it to the
  ///   outer one);
  /// - the engine's code that `body` runs touches the store only through
  ///   `RootReference.store`, which answers `nil` after the deinitializer began, never
  ///   through a reference kept across the application's code.
  /// Tests: `RootReleasedDuringScopedDispatchTests`, with updaters and a replaced value's
  /// `deinit` that release the root.
  @inlinable @inline(__always)
  final func withEngineCore<Result>(_ body: (_EngineCore) -> Result, ifReleased released: Result)
    -> Result
  {
    guard _isAlive else { return released }
    let wasLending = _isLendingEngine
    _isLendingEngine = true
    let result = _withUnretained(_unretainedCore, body)
    _isLendingEngine = wasLending
    if !_isAlive && !wasLending { _releaseSurvivingEngine() }
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

  /// Runs what the root queued during a scope's in-place dispatch, with the store held, if it
  /// is still alive; overridden by ``_RootReference``, which knows the store's type.
  @usableFromInline
  func _drainQueue() {}

  /// Lets the engine that its store handed over go, once the call it survived for returns.
  @usableFromInline
  final func _releaseSurvivingEngine() {
    let engine = _survivingEngine
    _survivingEngine = nil
    withExtendedLifetime(engine) {}
  }
}

/// A ``_RootHandle`` that knows the root's types, for the closures of the root's own link.
@usableFromInline
@MainActor
final class _RootReference<S: State, Dependencies: Sendable>: _RootHandle {
  // Unchecked lifetime: see ``RootHandle``'s comment.
  @usableFromInline unowned(unsafe) let _unownedRoot: Store<S, Dependencies>

  @usableFromInline
  init(_ store: Store<S, Dependencies>, engine: _RootEngine<S, Dependencies>) {
    _unownedRoot = store
    super.init(store, engine: engine)
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
    withEngineCore(
      { body(unsafeDowncast($0, to: _RootEngine<S, Dependencies>.self)) }, ifReleased: released)
  }

  @usableFromInline
  override func _drainQueue() {
    guard let store, let engine = store._engine else { return }
    engine._drainQueue(store: store)
  }
}

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

/// Calls `body` with the object `reference` refers to, without retaining it; the caller proves
/// that it stays alive for the call.
///
/// The one underscored standard-library entry point left in the module: `takeUnretainedValue()`
/// retains and releases the engine on every scoped dispatch, which costs a dispatch through an
/// element scope about a third of its time (`Docs/Performance.md`, "What simplicity
/// costs"). It goes when a scope's runtime holds what it needs of the root's engine itself.
@inlinable @inline(__always)
func _withUnretained<Object: AnyObject, Result>(
  _ reference: Unmanaged<Object>, _ body: (Object) -> Result
) -> Result {
  reference._withUnsafeGuaranteedRef(body)
}
