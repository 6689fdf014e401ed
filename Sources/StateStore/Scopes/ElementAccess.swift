import Synchronization

extension _ElementPlace {
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

extension _ScopeLink {
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
      forward: { [access] updater, admission, site in
        // With an admission, the root may be inside an updater: checked in the queued turn.
        if admission == nil, let reason = access.dropReason() { return .dropped(reason) }
        return parent._forward(
          ScopedUpdater<Sub, Element>(
            scope: name, updater: updater, elementID: id, identity: identity,
            origin: ScopedUpdater<Sub, Element>._origin(of: updater, else: origin), lens: lens),
          admission, site)
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
    bucket._hint = (from: from, to: array._stamp)
  }
}
