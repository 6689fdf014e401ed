import Synchronization

/// Every mutation of every `TrackedArray` gets a stamp from this counter, unique in the process.
private let mutationStamps = Atomic<UInt64>(1)

/// An ordered collection of identifiable elements that remembers which elements changed.
///
/// `TrackedArray` is what lets a store serve thousands of row subscribers at the cost of the rows
/// that changed: every mutation notes the identifier it touched, and
/// ``Store/subscribe(to:id:_:)`` reads those notes instead of comparing every subscriber's element.
/// Use it for the large collections in your state:
///
/// ```swift
/// struct AppState: State {
///   var todos = TrackedArray<Todo>()
/// }
/// store.subscribe(to: \.todos, id: 42) { todo in render(todo) }
/// ```
///
/// Identifiers are unique: inserting an element whose identifier is already present replaces it.
/// Equality, hashing and `Codable` see only the elements, in order; the change notes are
/// bookkeeping, so two arrays with the same elements are equal whatever their history.
public struct TrackedArray<Element: Identifiable & Sendable>: Sendable
where Element.ID: Sendable {
  /// How many recent mutations each array remembers; older history makes subscribers re-check.
  @usableFromInline static var _journalCapacity: Int { 32 }

  @usableFromInline var _storage: [Element]
  @usableFromInline var _positions: _PositionIndex
  /// The stamps and identifiers of the most recent mutations, oldest first, as a ring.
  @usableFromInline var _journal: [(stamp: UInt64, id: Element.ID)]
  @usableFromInline var _journalStart = 0
  /// The stamp the array carried just before the oldest mutation still in the journal.
  @usableFromInline var _journalBase: UInt64
  /// The stamp of the latest mutation: unique across every array in the process.
  @usableFromInline var _stamp: UInt64
  /// A stamp renewed whenever elements are added, removed or reordered, and only then: while it
  /// holds, each element stays at its position, and the journal names every element that changed.
  @usableFromInline var _layoutStamp: UInt64
  /// Where the last lookup by id found its element, so that the write of a read-modify-write
  /// (`todos[id: 3]?.done = true`, a get then a set) skips hashing the id a second time.
  @usableFromInline let _lookupHint = _PositionHint()

  /// Creates an empty array.
  public init() {
    _storage = []
    _positions = _PositionIndex()
    _journal = []
    _stamp = mutationStamps.add(1, ordering: .relaxed).newValue
    _journalBase = _stamp
    _layoutStamp = _stamp
  }

  /// Creates an array from `elements`; a later element replaces an earlier one with the same id.
  ///
  /// - Complexity: O(n).
  public init<S: Sequence>(_ elements: S) where S.Element == Element {
    self.init()
    // `Array(_:)` takes an array's buffer as is and copies any other sequence in one pass; an
    // append per element grew the buffer step by step, paying a copy and fresh pages each time
    // (3 ms of loading `todo-cli`'s 10,000 todos).
    _storage = Array(elements)
    rebuildPositions()
    #if STATESTORE_INVARIANT_CHECKS
      _checkInvariants()
    #endif
  }

  /// The elements, in order.
  public var elements: [Element] { _storage }

  /// The identifiers, in order.
  ///
  /// - Complexity: O(n).
  public var ids: [Element.ID] { _storage.map(\.id) }

  /// Whether an element with `id` is present.
  @inlinable
  public func contains(id: Element.ID) -> Bool { index(id: id) != nil }

  /// The position of the element with `id`, if present.
  @inlinable
  public func index(id: Element.ID) -> Int? { _positions.position(of: id, in: _storage) }

  /// The element with `id`; setting `nil` removes it, setting a value replaces or appends it.
  ///
  /// Mutating in place (`todos[id: 3]?.done = true`) touches only that element.
  ///
  /// - Complexity: O(1) to read or modify in place; O(n) to remove.
  @inlinable
  public subscript(id id: Element.ID) -> Element? {
    get {
      guard let position = _positions.position(of: id, in: _storage) else { return nil }
      _lookupHint._position.store(position, ordering: .relaxed)
      return _storage[position]
    }
    // A plain setter rather than `_modify`: the element is small to copy, while a `_modify`
    // coroutine whose frame holds an `Element?` is allocated on the heap on every mutation
    // (still so with Swift 6.3, even when forced inline).
    set {
      guard let position = hintedPosition(of: id) ?? index(id: id) else {
        if let newValue { upsert(newValue) }
        return
      }
      if let newValue, newValue.id == id {
        _storage[position] = newValue
        noteChange(of: id)
        #if STATESTORE_INVARIANT_CHECKS
          _checkInvariants()
        #endif
      } else {
        remove(at: position)
        if let newValue { upsert(newValue) }
      }
    }
  }

  /// The position the last lookup found, if it still holds the element with `id`.
  ///
  /// Identifiers are unique, so an element with `id` at the hinted position is the one: the
  /// hint can be stale (another copy of the array, or a removal, moved things) but never wrong.
  @inlinable
  func hintedPosition(of id: Element.ID) -> Int? {
    let hint = _lookupHint._position.load(ordering: .relaxed)
    guard hint >= 0, hint < _storage.count, _storage[hint].id == id else { return nil }
    return hint
  }

  /// Changes the element at `position` through `body`, in place, noting the change.
  ///
  /// If `body` changes the element's identifier, the element is re-indexed, replacing any other
  /// element that had that identifier. If `body` throws, what it changed before throwing is kept
  /// and noted, as with any `inout` argument.
  ///
  /// - Complexity: O(1) beyond `body`; O(*n*) when `body` changes the identifier.
  @inlinable
  public mutating func modify<R>(at position: Int, _ body: (inout Element) throws -> R) rethrows
    -> R
  {
    let oldID = _storage[position].id
    defer {
      if _storage[position].id == oldID {
        noteChange(of: oldID)
        #if STATESTORE_INVARIANT_CHECKS
          _checkInvariants()
        #endif
      } else {
        _reindexElement(at: position, formerly: oldID)
      }
    }
    // In place: a copy would make the element's buffers shared, so that changing one of them
    // copied it.
    return try body(&_storage[position])
  }

  /// Re-indexes the element at `position`, whose identifier changed from `oldID` in place.
  ///
  /// The position index still files the element under `oldID`, so it is rebuilt without the
  /// element, which then goes in as ``upsert(_:)`` puts it.
  ///
  /// - Complexity: O(*n*).
  @usableFromInline
  mutating func _reindexElement(at position: Int, formerly oldID: Element.ID) {
    let element = _storage.remove(at: position)
    noteChange(of: oldID)
    rebuildPositions()
    upsert(element)
  }

  /// Appends `element`, or replaces the element with the same id where it stands.
  ///
  /// - Returns: `true` if the element was appended, `false` if it replaced an existing one.
  @discardableResult
  public mutating func upsert(_ element: Element) -> Bool {
    defer {
      #if STATESTORE_INVARIANT_CHECKS
        _checkInvariants()
      #endif
    }
    if let position = index(id: element.id) {
      _storage[position] = element
      noteChange(of: element.id)
      return false
    }
    _storage.append(element)
    _positions._insert(_storage.count - 1, in: _storage)
    _layoutStamp = Self._nextStamp()
    noteChange(of: element.id)
    return true
  }

  /// Appends `element` unless its id is already present.
  ///
  /// - Returns: `true` if the element was appended.
  @discardableResult
  public mutating func append(_ element: Element) -> Bool {
    guard !contains(id: element.id) else { return false }
    return upsert(element)
  }

  /// Inserts `element` at `position` (clamped to the valid range) unless its id is present.
  ///
  /// - Returns: `true` if the element was inserted.
  /// - Complexity: O(n).
  @discardableResult
  public mutating func insert(_ element: Element, at position: Int) -> Bool {
    guard !contains(id: element.id) else { return false }
    let position = Swift.min(Swift.max(position, 0), _storage.count)
    _storage.insert(element, at: position)
    _positions._shiftPositions(from: position, by: 1)
    _positions._insert(position, in: _storage)
    _layoutStamp = Self._nextStamp()
    noteChange(of: element.id)
    #if STATESTORE_INVARIANT_CHECKS
      _checkInvariants()
    #endif
    return true
  }

  /// Removes and returns the element with `id`, if present.
  ///
  /// - Complexity: O(n).
  @discardableResult
  public mutating func remove(id: Element.ID) -> Element? {
    guard let position = index(id: id) else { return nil }
    return remove(at: position)
  }

  /// Removes and returns the element at `position`.
  ///
  /// - Complexity: O(n).
  @discardableResult
  public mutating func remove(at position: Int) -> Element {
    _positions._remove(position, in: _storage)
    let element = _storage.remove(at: position)
    _positions._shiftPositions(from: position + 1, by: -1)
    _layoutStamp = Self._nextStamp()
    noteChange(of: element.id)
    #if STATESTORE_INVARIANT_CHECKS
      _checkInvariants()
    #endif
    return element
  }

  /// Removes every element that satisfies `shouldRemove`.
  ///
  /// - Complexity: O(n).
  public mutating func removeAll(where shouldRemove: (Element) throws -> Bool) rethrows {
    var removed: [Element.ID] = []
    defer {
      #if STATESTORE_INVARIANT_CHECKS
        _checkInvariants()
      #endif
    }
    do {
      try _storage.removeAll { element in
        let remove = try shouldRemove(element)
        if remove { removed.append(element.id) }
        return remove
      }
    } catch {
      // A throwing predicate leaves every element in place but may have reordered them.
      rebuildPositions()
      throw error
    }
    guard !removed.isEmpty else { return }
    rebuildPositions()
    for id in removed { noteChange(of: id) }
  }

  /// Removes every element.
  ///
  /// - Complexity: O(n).
  public mutating func removeAll() {
    removeAll { _ in true }
  }

  /// Reorders the elements; no element's value changes, so element subscribers are not told.
  ///
  /// - Complexity: O(n log n).
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    // Rebuilt even when the comparison throws: the elements may be half sorted by then.
    defer {
      rebuildPositions()
      #if STATESTORE_INVARIANT_CHECKS
        _checkInvariants()
      #endif
    }
    try _storage.sort(by: areInIncreasingOrder)
  }

  /// Moves the element with `id` to `position` (clamped to the valid range).
  ///
  /// - Complexity: O(n).
  public mutating func move(id: Element.ID, to position: Int) {
    guard let from = index(id: id) else { return }
    _positions._remove(from, in: _storage)
    let element = _storage.remove(at: from)
    _positions._shiftPositions(from: from + 1, by: -1)
    let target = Swift.min(Swift.max(position, 0), _storage.count)
    _storage.insert(element, at: target)
    _positions._shiftPositions(from: target, by: 1)
    _positions._insert(target, in: _storage)
    _layoutStamp = Self._nextStamp()
    #if STATESTORE_INVARIANT_CHECKS
      _checkInvariants()
    #endif
  }

  /// Indexes every element anew, keeping one element per identifier.
  ///
  /// - Complexity: O(n).
  mutating func rebuildPositions() {
    _layoutStamp = Self._nextStamp()
    if !_positions._rebuild(_storage) { deduplicate() }
  }

  /// Keeps the last element of each identifier, in the position of the first.
  private mutating func deduplicate() {
    var latest: [Element.ID: Element] = [:]
    for element in _storage { latest[element.id] = element }
    var seen = Set<Element.ID>()
    _storage = _storage.compactMap { element in
      seen.insert(element.id).inserted ? latest[element.id] : nil
    }
    _ = _positions._rebuild(_storage)
  }

  @inlinable
  mutating func noteChange(of id: Element.ID) {
    _stamp = Self._nextStamp()
    if _journal.count < Self._journalCapacity {
      _journal.append((_stamp, id))
    } else {
      _journalBase = _journal[_journalStart].stamp
      _journal[_journalStart] = (_stamp, id)
      _journalStart = (_journalStart + 1) % Self._journalCapacity
    }
  }

  /// Calls `body` with each identifier touched since the array carried `previous`.
  ///
  /// - Returns: `false` when `previous` is no longer in this array's history (too old, or from
  ///   another array), in which case `body` was not called and every element may have changed.
  /// - Complexity: O(journal capacity).
  @inlinable
  package func visitChanges(since previous: UInt64, _ body: (Element.ID) -> Void) -> Bool {
    if previous == _stamp { return true }
    let count = _journal.count
    var offset = count - 1
    while offset >= 0 {
      if _journal[(_journalStart + offset) % count].stamp == previous { break }
      offset -= 1
    }
    guard offset >= 0 || previous == _journalBase else { return false }
    var later = offset + 1
    while later < count {
      body(_journal[(_journalStart + later) % count].id)
      later += 1
    }
    return true
  }

  /// The stamp of the latest mutation, for ``visitChanges(since:_:)``.
  @inlinable
  package var currentStamp: UInt64 { _stamp }

  /// A stamp that changes whenever elements are added, removed or reordered (``sort(by:)`` and
  /// ``move(id:to:)`` included, which note no element change): while it is the same, every
  /// element is where it was, and ``visitChanges(since:_:)`` names each one that changed.
  @inlinable
  package var currentLayoutStamp: UInt64 { _layoutStamp }

  /// A stamp no mutation of any array in the process has had.
  @usableFromInline
  static func _nextStamp() -> UInt64 {
    mutationStamps.add(1, ordering: .relaxed).newValue
  }

  /// What a lookup by identifier reads: the elements and their index.
  ///
  /// A row subscription takes this out of the state instead of the whole array, which retains
  /// (and later releases) two buffers instead of four: the journal and the hint stay behind.
  @inlinable
  var lookupTable: _LookupTable {
    _LookupTable(storage: _storage, positions: _positions, stamp: _stamp)
  }

  /// The elements of a ``TrackedArray`` and their positions by identifier, as they were when taken.
  @usableFromInline
  struct _LookupTable {
    @usableFromInline let _storage: [Element]
    @usableFromInline let _positions: _PositionIndex
    /// The array's ``currentStamp`` when taken.
    @usableFromInline let _stamp: UInt64

    @inlinable
    init(storage: [Element], positions: _PositionIndex, stamp: UInt64) {
      self._storage = storage
      self._positions = positions
      self._stamp = stamp
    }

    /// The element with `id`, whose `hashValue` is `hashValue`, as the array's
    /// `subscript(id:)` reads it, without noting a hint.
    @inlinable
    subscript(id id: Element.ID, hashValue hashValue: Int) -> Element? {
      guard let position = _positions.position(of: id, hashValue: hashValue, in: _storage)
      else { return nil }
      return _storage[position]
    }
  }

  /// The element with `id`, whose `hashValue` is `hashValue`, without noting a hint.
  @inlinable
  subscript(id id: Element.ID, hashValue hashValue: Int) -> Element? {
    guard let position = _positions.position(of: id, hashValue: hashValue, in: _storage)
    else { return nil }
    return _storage[position]
  }
}

/// The position a `TrackedArray` lookup found last; see `TrackedArray.hintedPosition(of:)`.
///
/// Shared by the copies of an array and read and written with relaxed atomics, so that a lookup
/// on a shared array stays free of data races; a hint is only ever a guess that is checked.
@usableFromInline
final class _PositionHint: Sendable {
  @usableFromInline let _position = Atomic<Int>(-1)

  @usableFromInline
  init() {}
}
