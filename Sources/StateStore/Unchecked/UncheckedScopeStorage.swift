// The scopes' storage: the fields that a scoped dispatch or a scope's notification reads,
// which skip the run-time exclusivity check in a release build, each with the proof that no
// two accesses to it can overlap. The checked build (`STATESTORE_CHECKED_EXCLUSIVITY`, which
// `.ci/run` runs the whole suite in) checks them all. The methods live in `Scopes/`.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

  /// Files `node`, the node of a scope of the element `id` or of a scope under it, in the group,
  /// making the group (and registering its node with `registerGroup`) if it has none.
  ///
  /// Inlined where the element scope is made, so that the group, which runs on every update
  /// that touches its array, is specialised for the application's element type.
  @inlinable
  func register<Element: Identifiable & Sendable>(
    _ node: _ScopeNode, id: Element.ID, place: _ElementPlace, origin: _SliceOrigin,
    read: @escaping @MainActor () -> TrackedArray<Element>?,
    peek: _ArrayPeek<Element>?,
    registerGroup: @MainActor (_ScopeNode) -> Void
  ) where Element.ID: Sendable {
    let group: _ElementScopeGroup<Element>
    if let existing = self._group as? _ElementScopeGroup<Element> {
      group = existing
    } else {
      group = _ElementScopeGroup(origin: origin, relay: _relay, read: read, peek: peek)
      self._group = group
      group._entry = self
      registerGroup(group.makeNode())
    }
    group.add(node, id: id, place: place)
  }
}

/// What an ``ElementScopeGroup`` is, whatever its element type.
@usableFromInline
@MainActor
package class _ElementScopeGroupBase {
  /// How many members have `(old, new)` listeners.
  private var listening = 0
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
  /// the next refresh to notify without reading the journal (see ``ScopeBucket``).
  // Unchecked: written only by `noteDispatch(into:)`, by a swap whose released value is
  // dropped after the access, and read by copy; every access is on the main actor.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _hinted: _ScopeBucket?

  /// Files `bucket` as the one whose element the dispatch about to be applied changes.
  ///
  /// The bucket records the array's stamps around the change itself (see ``ScopeBucket``);
  /// until it does, the hint names no change, and the next refresh takes the journal's way.
  @inlinable
  func noteDispatch(into bucket: _ScopeBucket) {
    bucket._hint.to = 0
    var previous: _ScopeBucket? = bucket
    // Swapped, not assigned: a bucket dropped here is released after the access. (A bucket
    // off the table holds no node, so its release runs no code of the application's anyway.)
    swap(&_hinted, &previous)
  }

  @usableFromInline
  init() {}

  // Isolated, so that the entry's reference, read on the main actor, is cleared before the
  // group is destroyed (see `ElementScopeEntry.group`).
  isolated deinit {
    if let _entry, _entry._group === self { _entry._group = nil }
  }

  /// Counts a member that starts or stops listening, and says whether the group does.
  @usableFromInline
  func _listeningChanged(_ isListening: Bool) {
    listening += isListening ? 1 : -1
    _node?._keepsOldSlice = listening > 0
  }
}

/// The members of one element of an ``ElementScopeGroup``: the nodes filed under its id.
///
/// Each element scope remembers the bucket it was filed in (`ElementPlace.bucket`), so that a
/// dispatch through it can tell the group which members to notify without the group copying
/// the array, reading its journal or hashing the id: the change applied at once, the bucket
/// records the array's stamps just before and just after it (``hint``), and
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

  /// The nodes filed under the element's id, in the order they joined.
  ///
  /// Read as a copy; set only while the caller's copy holds the nodes it had, so that the
  /// write releases no node's last reference.
  @inlinable
  var _nodes: [_ScopeNode] {
    get {
      guard let _first else { return [] }
      return [_first] + _others
    }
    set {
      _first = newValue.first
      _others = Array(newValue.dropFirst())
    }
  }
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

  /// Takes the bucket off its group: it no longer holds nodes, so nothing is kept alive by an
  /// element scope that remembers it.
  @inlinable
  func unfile() {
    _isFiled = false
    // Released after the write: a node's release may release its scope, and with it the
    // application's closures.
    let nodes = _nodes
    _nodes = []
    withExtendedLifetime(nodes) {}
  }
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
/// inside them (or from any callback) waits in ``pending`` until the next refresh.
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
  /// The bucket the element's scopes were last filed in by their ``ElementScopeGroup``, which a
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

/// A copy of the root's bytes where its scopes' kept slices lie, so that one comparison tells
/// a root update that left every such slice alone, without visiting the scopes.
///
/// A scope whose slice is a stored property (its origin is a byte range of the root) and
/// `Equatable` keeps the slice its view models were last evaluated on (`Store.lastSlice`). The
/// mirror holds that slice's bytes at the slice's place. After an update, if the root's bytes
/// there still equal the mirror's, the slice is the very value the scope keeps, bit for bit:
///
/// - every buffer the bytes point to is alive, because the kept slice holds it, so no freed
///   buffer's address can have been reused by a new one;
/// - no buffer the bytes point to was changed in place, because the kept slice shares it, so a
///   mutation through the root copies it first (copy-on-write) and changes the bytes.
///
/// So the scope's subscribers were evaluated on this very value, and skipping them is exact.
/// This assumes value semantics, as the byte-range skip does: a class instance the slice holds
/// can change without its reference changing, and such a change is not seen (nor is it by
/// `==` on the kept slice, which shares the instance). Bytes that differ while the values are
/// equal (padding, a value rebuilt in a new buffer) only send the scope to its `==`.
///
/// The mirror is raw memory: its bytes are copied and compared, never read as values, so it
/// retains nothing and runs nothing of the application's.
///
/// Its variables skip the run-time exclusivity check, read on every root update: each access is
/// a short read or write by the root, which calls no code of the application's (nor anything
/// that could reach this object) while it is open.
@usableFromInline
package final class _ScopeMirror {
  /// The mirrored bytes, as many as the root's state has.
  @usableFromInline let _bytes: UnsafeMutableRawPointer
  /// The size of the root's state.
  @usableFromInline let _size: Int
  /// The byte ranges of the member scopes' slices, sorted and merged: the first, kept apart so
  /// that the usual single span is read without touching an array, and the rest.
  // Unchecked: written only by the root between notifications, read by copy; no user code
  // runs while an access is open (see the type's comment and `ScopeMirrorTests`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _firstSpan: Range<Int> = 0..<0
  // Unchecked: written only by the root between notifications, read by copy; no user code
  // runs while an access is open (see the type's comment and `ScopeMirrorTests`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _otherSpans: [Range<Int>] = []
  /// How many member scopes' slices the mirror does not hold now.
  // Unchecked: written only by the root between notifications, read by copy; no user code
  // runs while an access is open (see the type's comment and `ScopeMirrorTests`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _unmirrored = 0
  /// Whether the scopes' memberships changed since the lists were built.
  // Unchecked: written only by the root between notifications, read by copy; no user code
  // runs while an access is open (see the type's comment and `ScopeMirrorTests`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _needsRebuild = true
  /// Where the root's scopes note their cancellations: their sweep runs when notified, so an
  /// update after a cancellation notifies every scope.
  @usableFromInline let _cancellations = _CancellationLog()

  @usableFromInline
  init(size: Int) {
    self._size = size
    _bytes = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
    _bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, 1))
  }

  deinit {
    _bytes.deallocate()
  }

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
