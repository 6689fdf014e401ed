// The scopes' storage: the fields that a scoped dispatch or a scope's notification reads,
// which skip the run-time exclusivity check in a release build, each with the proof that no
// two accesses to it can overlap. The checked build (`STATESTORE_CHECKED_EXCLUSIVITY`, which
// `.ci/run` runs the whole suite in) checks them all. The methods live in `Scopes/`.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// and drops it there if it answers false. The site is the `dispatch` call's, for the root's
  /// update observers.
  @usableFromInline let _forward:
    @MainActor (any StateUpdater<Sub>, _ admission: _ScopeAdmission?, _ site: DispatchSite?)
      -> _ScopeDispatchOutcome
  /// Why dispatches are dropped now, or `nil` while the scope is live.
  @usableFromInline let _dropReason: @MainActor () -> ScopeDispatchDroppedError.Reason?
  /// Where a scope's node goes once the scope has observers: the root's list, or, for a scope
  /// at or under an element scope, the element's bucket in its array's ``_ElementScopeGroup``.
  @usableFromInline let _register: @MainActor (_ScopeNode) -> Void
  /// Tells the root that a scope's observers changed, so that it knows what to keep.
  @usableFromInline let _observersChanged: @MainActor () -> Void
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

  // The scope's own fields: what its notification keeps between updates.
  /// The number of refreshes of a scope's slice that its subscribers have been told about;
  /// the root's engine counts its updates (see `Store._subscriptionVersion`).
  // A plain value, read by copy and written by assignment, on the main actor.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _version: UInt64 = 0
  /// Whether `lastSlice` was dropped before an in-place scoped dispatch (see
  /// `forgetSlices(changedBy:)`) and not yet taken again.
  // Unchecked: a plain value, read by copy and written by assignment on the main actor, never
  // passed `inout`, so no access to it spans any call.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _hasForgottenSlice = false
  /// Whether ``_capturedSlice`` holds a slice, so that a refresh reads it only then.
  // Unchecked: a plain value, read by copy and written by assignment on the main actor, never
  // passed `inout`, so no access to it spans any call.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _holdsCapturedSlice = false
  /// `==` on the slice, for a scope whose slice is `Equatable`; `nil` otherwise and at the root.
  // Unchecked: read by copy on every refresh of the scope, written once, where the scope is
  // made (replacing `nil`, so nothing is released), on the main actor.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _sliceEquality: (@MainActor (Sub, Sub) -> Bool)?
  /// A scope's slice from before the update being applied, for its `(old, new)` listeners.
  // Unchecked: read by copy, and written only by `captureSlice()` (a swap: the slice it
  // replaces is released from a local after the write) and by `refreshAsScope(origin:)`, which
  // copies it out before clearing it, so that no write releases a slice's last reference, and
  // no deinitializer of the app's runs, inside the access. Read on every refresh of a scope.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _capturedSlice: Sub?
  /// A scope's registration with its root, while the scope has observers.
  ///
  /// Not a weak reference: that would give the node a side table, and every retain and release
  /// of the node, by its holder on every update, would take the runtime's slow path.
  // Unchecked lifetime, proof that it never refers to a node whose deinitializer has run:
  // - it is written only by `scopeObserversChanged(link:)`, to a node it has just made (alive), by
  //   `giveUpScopeNode()`, to nil, and by the node's deinitializer (`ScopeNode.deinit`), which
  //   sets it to nil when it refers to that node, as the deinitializer's first statement;
  // - that deinitializer is isolated to the main actor, as is every access to this field, so
  //   no read runs between it and the node's memory being freed; a node whose last reference
  //   goes on another thread waits for the main actor with its memory intact, and main-actor
  //   code that reaches it meanwhile finds a whole node, which it uses only for the length of
  //   a call (it stores it nowhere), as `RootHandle` argues for the root;
  // - a store that answers its holder that it has no observers left gives its node up first
  //   (`giveUpScopeNode()`), so a subscriber added from any callback before the holder drops
  //   the node registers a new node rather than joining one about to be dropped.
  // Tests: `ScopeNodeLifetimeTests`.
  @usableFromInline unowned(unsafe) var ownScopeNode: _ScopeNode?
  /// A scope's slice as its view-model and key-path subscribers were last evaluated on, kept
  /// while it has some and its slice is `Equatable`, so that an update that leaves the slice
  /// `==` evaluates none of them.
  ///
  /// Written through `_lastSlice` (`Scopes/ScopeNode.swift`), which tells the node.
  @usableFromInline var _keptSlice: Sub?
  /// Makes a scope's node; set where the scope is made, so that its notification runs as code
  /// specialised for the application's types.
  @usableFromInline var _makeScopeNode: (@MainActor () -> _ScopeNode?)?

  @usableFromInline
  init(
    rootHandle: _RootHandle, path: String, name: String, origin: _SliceOrigin,
    identity: _ScopeIdentity,
    read: @escaping @MainActor () -> Sub?,
    peek: @escaping @MainActor ((UnsafeRawPointer) -> Void) -> Bool,
    withSlice: @escaping @MainActor (_SliceOrigin, (inout Sub) -> Void) -> _ScopeDispatchOutcome,
    forward:
      @escaping @MainActor (any StateUpdater<Sub>, _ScopeAdmission?, DispatchSite?)
      -> _ScopeDispatchOutcome,
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
}

/// Where a link keeps the element scopes of one of its arrays: the log their cancellations are
/// relayed to, made with the first element scope, and their group while it has members.
///
/// The group is held by its own node (with the root, or with an enclosing group), not here: a
/// strong reference would make a cycle through the members' links, which hold their parent.
@usableFromInline
@MainActor
package final class _ElementScopeEntry {
  @usableFromInline let _relay: _CancellationLog
  /// The group, while it has members.
  ///
  /// Not a weak reference, which would give the group a side table, and every retain and
  /// release of it, on every update that touches its array, the runtime's slow path.
  // Unchecked lifetime: set by `register`, to the group it has just made and holds, and cleared
  // by that group's isolated deinitializer as it begins (`ElementScopeGroupBase.deinit`); every
  // access is on the main actor. The proof of `Store.ownScopeNode` applies as it is. Tests:
  // `ScopeNodeLifetimeTests`.
  // Unchecked access: read on every dispatch through an element scope. Read by copy and written
  // by assignment of an unowned(unsafe) reference, which retains, releases and calls nothing,
  // so no access to it spans a call and none can overlap another.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline unowned(unsafe) var _group: _ElementScopeGroupBase?

  @usableFromInline
  init(relay: _CancellationLog) {
    self._relay = relay
  }

}

/// What an ``_ElementScopeGroup`` is, whatever its element type.
@usableFromInline
@MainActor
package class _ElementScopeGroupBase {
  /// How many members have `(old, new)` listeners.
  var _listening = 0
  /// The group's own node; it holds the group.
  ///
  /// Not a weak reference, which would give the node a side table (see `Store.ownScopeNode`).
  // Unchecked lifetime: set to the node `makeNode()` has just made, and cleared by that node's
  // isolated deinitializer as it begins (`onRelease`); every access is on the main actor. The
  // proof of `Store.ownScopeNode` applies as it is. Tests: `ScopeNodeLifetimeTests`.
  @usableFromInline unowned(unsafe) var _node: _ScopeNode?

  /// The entry that refers to the group, told when the group goes.
  @usableFromInline var _entry: _ElementScopeEntry?
  /// The bucket of the element that the latest dispatch through an element scope changed, for
  /// the next refresh to notify without reading the journal (see ``_ScopeBucket``).
  // Unchecked: written only by `noteDispatch(into:)`, by a swap whose released value is
  // dropped after the access, and read by copy; every access is on the main actor.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _hinted: _ScopeBucket?

  @usableFromInline
  init() {}

  // Isolated, so that the entry's reference, read on the main actor, is cleared before the
  // group is destroyed (see `ElementScopeEntry.group`).
  isolated deinit {
    if let _entry, _entry._group === self { _entry._group = nil }
  }

}

/// The members of one element of an ``_ElementScopeGroup``: the nodes filed under its id.
///
/// Each element scope remembers the bucket it was filed in (`ElementPlace.bucket`), so that a
/// dispatch through it can tell the group which members to notify without the group copying
/// the array, reading its journal or hashing the id: the change applied at once, the bucket
/// records the array's stamps just before and just after it (``_hint``), and
/// the group's next refresh notifies the bucket alone when its last stamp is the first and the
/// array's stamp is still the second. Stamps are unique in the process and renewed by every
/// change of an element, and a change made through an element scope whose layout stamp holds
/// notes exactly one element, so those two equalities say that this element is the only one
/// changed since the group last looked. Anything else takes the journal's way.
@usableFromInline
@MainActor
final class _ScopeBucket {
  // `first`, `isFiled` and `hint` skip the run-time exclusivity check (read on
  // every notification of the element): plain main-actor values, read by copy and written by
  // assignment (replacing `first` releases at most a node, our own object, whose release runs
  // none of the application's code); no access calls anything. `others`, an array, is checked.
  // Tests: `ElementScopeDispatchTests`.
  /// The first node filed under the element's id: most elements have one scope, whose node is
  /// then reached without an array's buffer (one object less to fetch on every notification).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _first: _ScopeNode?
  /// The nodes filed after the first, in the order they joined.
  @usableFromInline var _others: [_ScopeNode] = []

  /// False once the group dropped the bucket (no member left) or went: its element scopes then
  /// take the journal's way until they are filed again.
  // Unchecked: see above `first`.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _isFiled = true
  /// The array's stamps just before and just after the latest dispatch through one of the
  /// bucket's scopes; `to` is 0 while none is recorded.
  // Unchecked: see above `first`.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _hint: (from: UInt64, to: UInt64) = (0, 0)

  @inlinable
  init() {}

}

/// The element scopes of one `TrackedArray`, and the scopes under them, notified only for the
/// elements an update changed.
///
/// The root, or the enclosing group, holds one node for the whole group; on each update that
/// may have touched the array, the group reads the array's change journal (as row subscriptions
/// do, see `ElementGroup`) and refreshes the members of the elements it names. A thousand
/// element scopes cost what the changed rows' scopes cost.
///
/// The members are keyed by the element's id, whose `hash(into:)` and `==` are the app's: they
/// run only on the group's own copy of the table, taken out for the length of a refresh, so no
/// access to anything the store shares is open while they run, and a member that joins from
/// inside them (or from any callback) waits in ``_pending`` until the next refresh.
@usableFromInline
@MainActor
final class _ElementScopeGroup<Element: Identifiable & Sendable>: _ElementScopeGroupBase
where Element.ID: Sendable {
  /// Where the array lies in the root.
  @usableFromInline let _origin: _SliceOrigin
  /// Set by every member's cancellations: the members of unchanged elements are not visited,
  /// so they are swept when this says one was cancelled.
  @usableFromInline let _relay: _CancellationLog
  /// The array as it is now, or `nil` once its parent is gone.
  @usableFromInline let _read: @MainActor () -> TrackedArray<Element>?
  /// Reads the array in place, for its ``TrackedArray/currentStamp``, when the array is stored
  /// inline in its parent; `nil` otherwise (no dispatch then leaves a hint).
  @usableFromInline let _peek: _ArrayPeek<Element>?
  @usableFromInline var _members: [Element.ID: _ScopeBucket] = [:]
  /// Members that joined since the last refresh.
  @usableFromInline var _pending: [_PendingMember] = []
  // Unchecked: a plain value, read by copy and written by assignment, on the main actor; no
  // access spans a call. Read on every dispatch through an element scope.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _lastStamp: UInt64
  // Unchecked: a plain value; see `lastStamp`.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _round: UInt64 = 0

  /// A member that joined since the last refresh.
  @usableFromInline
  struct _PendingMember {
    @usableFromInline let id: Element.ID
    @usableFromInline let _node: _ScopeNode
    /// Where the member's element scope remembers its bucket.
    @usableFromInline let _place: _ElementPlace

    @inlinable
    init(id: Element.ID, node: _ScopeNode, place: _ElementPlace) {
      self.id = id
      self._node = node
      self._place = place
    }
  }

  @inlinable
  init(
    origin: _SliceOrigin, relay: _CancellationLog,
    read: @escaping @MainActor () -> TrackedArray<Element>?,
    peek: _ArrayPeek<Element>?
  ) {
    self._origin = origin
    self._relay = relay
    self._read = read
    self._peek = peek
    self._lastStamp = read()?.currentStamp ?? 0
    super.init()
  }

  // Isolated, so that the members' references to the group (`ScopeNode.container`), read on the
  // main actor, are cleared before the group is destroyed.
  isolated deinit {
    let table = _members
    for bucket in table.values {
      for node in bucket._nodes { node._container = nil }
      // Its element scopes may remember it: it must not keep their nodes alive.
      bucket.unfile()
    }
    for member in _pending { member._node._container = nil }
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

}
