import Synchronization

/// A group of the store's element subscribers, kept under its array's key path: an
/// ``_ElementGroup``, built as ``_ObserverGroup`` describes.
@usableFromInline
@MainActor
class _ElementGroupBase<S: State>: _ObserverGroup<S> {
  /// The key path of the array whose elements the group's subscribers watch.
  @usableFromInline let _anyKeyPath: AnyKeyPath

  @usableFromInline
  init(
    anyKeyPath: AnyKeyPath, refresh: @escaping @MainActor (_ObserverGroup<S>, S, UInt64) -> Void,
    removeCancelled: @escaping @MainActor (_ObserverGroup<S>) -> Bool,
    isEmpty: @escaping @MainActor (_ObserverGroup<S>) -> Bool
  ) {
    self._anyKeyPath = anyKeyPath
    super.init(refresh: refresh, removeCancelled: removeCancelled, isEmpty: isEmpty)
  }

  /// Tells the subscribers about the elements that changed in `state`: an element group needs
  /// no version, as its array's stamp tells what changed since the last refresh.
  @inlinable
  final func refresh(_ state: S) {
    _refreshBody(self, state, 0)
  }
}

/// The subscribers of one element, and the element they were last told about.
///
/// The last element is kept once per bucket rather than once per subscriber: every subscriber in
/// a bucket has been told the same element (see `ElementGroup.late`), which is what lets a
/// subscriber cost its token, its entry in the group's table and its link, and nothing more.
///
/// The subscribers are a chain, in the order they joined, from `first` to `latest` through the
/// group's `links`: a bucket has no array of its own to grow, copy and free.
@usableFromInline
struct _ElementBucket<Element: Identifiable & Equatable & Sendable>: Sendable
where Element.ID: Sendable {
  /// The identifier of the element, which finds the bucket in ``_ElementBuckets``.
  @usableFromInline let id: Element.ID
  @usableFromInline var _last: Element?
  /// The first subscriber's index in the group's ``_SubscriberTable``.
  @usableFromInline var _first: _SubscriberIndex
  /// The index of the subscriber that joined last: the end of the chain.
  @usableFromInline var _latest: _SubscriberIndex
  /// The identifier's hash, as ``_ElementBuckets`` keeps it: the table never hashes again.
  ///
  /// Last, where it fills the padding after `latest` for most elements.
  @usableFromInline let hash: UInt32

  @inlinable
  init(id: Element.ID, hashValue: Int, last: Element?, subscriber: _SubscriberIndex) {
    self.id = id
    self._last = last
    self._first = subscriber
    self._latest = subscriber
    self.hash = _ElementBuckets<Element>.hash(of: hashValue)
  }
}

/// A subscriber that joined while its group had changes left to deliver, with the element it
/// was given; it moves into its bucket once the group has caught up.
@usableFromInline
struct _LateSubscriber<Element: Identifiable & Equatable & Sendable>: Sendable
where Element.ID: Sendable {
  @usableFromInline let id: Element.ID
  @usableFromInline let _last: Element?
  /// The subscriber's index in the group's ``_SubscriberTable``.
  @usableFromInline let _index: _SubscriberIndex

  @inlinable
  init(id: Element.ID, last: Element?, index: _SubscriberIndex) {
    self.id = id
    self._last = last
    self._index = index
  }
}

/// The subscribers of the elements of one ``TrackedArray`` in the state.
@usableFromInline
@MainActor
final class _ElementGroup<S: State, Element: Identifiable & Equatable & Sendable>:
  _ElementGroupBase<
    S
  >
where Element.ID: Sendable {
  /// Reads the group's array out of the state.
  @usableFromInline let _array: _StoredProjection<S, TrackedArray<Element>>
  /// The subscribers' callbacks; their tokens release them from any thread.
  @usableFromInline let _table: _SubscriberTable<Element>
  @usableFromInline var _buckets = _ElementBuckets<Element>()
  /// The next subscriber of the same bucket, by index in ``_table``.
  ///
  /// The link of a bucket's `latest` subscriber is never read. Holds every index the table has
  /// handed out. Written only by filing a subscriber and by the sweep, neither of which calls
  /// user code, and read by copying one link.
  @usableFromInline var _links: [_SubscriberIndex] = []
  // A plain integer, read by copy and written by assignment: no access can span anything.
  @usableFromInline var _lastStamp: UInt64
  /// Subscribers that joined while the group was behind the state (from a listener, or from
  /// another subscriber during this group's delivery): they were given an element the rest of
  /// their bucket has not been told about yet, so they keep it until the group catches up.
  @usableFromInline var _late: [_LateSubscriber<Element>] = []

  /// A group whose operations are its own methods, specialised where this is called.
  @inlinable
  convenience init(
    keyPath: KeyPath<S, TrackedArray<Element>>, state: S, table: _SubscriberTable<Element>
  ) {
    // `group` is always an `ElementGroup<S, Element>`: see `ObserverGroup`.
    self.init(
      keyPath: keyPath, state: state, table: table,
      refresh: { group, state, _ in
        unsafeDowncast(group, to: _ElementGroup<S, Element>.self).deliverChanges(in: state)
      },
      removeCancelled: {
        unsafeDowncast($0, to: _ElementGroup<S, Element>.self).removeCancelledSlots()
      },
      isEmpty: { unsafeDowncast($0, to: _ElementGroup<S, Element>.self).hasNoSubscribers })
  }

  @usableFromInline
  init(
    keyPath: KeyPath<S, TrackedArray<Element>>, state: S, table: _SubscriberTable<Element>,
    refresh: @escaping @MainActor (_ObserverGroup<S>, S, UInt64) -> Void,
    removeCancelled: @escaping @MainActor (_ObserverGroup<S>) -> Bool,
    isEmpty: @escaping @MainActor (_ObserverGroup<S>) -> Bool
  ) {
    self._array = _StoredProjection(keyPath)
    self._lastStamp = state[keyPath: keyPath].currentStamp
    self._table = table
    super.init(
      anyKeyPath: keyPath, refresh: refresh, removeCancelled: removeCancelled, isEmpty: isEmpty)
  }

  // The tokens hold the table, and may outlive the store: releasing the group (with its store)
  // releases what the subscribers captured, as cancelling would.
  deinit {
    _table._releaseAll()
  }

  /// Whether no subscriber is filed in a bucket or waiting to be.
  @inlinable
  var hasNoSubscribers: Bool { _buckets.isEmpty && _late.isEmpty }

  /// Drops cancelled subscribers and frees their indices; returns whether the group is now empty.
  ///
  /// - Complexity: O(1) when every subscriber is cancelled (a list going away);
  ///   otherwise O(buckets + subscribers).
  @inlinable
  func removeCancelledSlots() -> Bool {
    // Everything the sweep drops is released at the end of this block, after the lock and the
    // writes; a deinitializer there may subscribe to this group, so emptiness is asked after.
    do {
      var emptied: [Int] = []
      // Held across the sweep so that the late subscribers it drops release their elements
      // when this copy goes.
      let lateBeforeSweep = _late
      // One lock for the whole sweep; nothing inside calls user code (the callbacks were
      // released by their tokens, and the elements of the buckets and of late subscribers are
      // released after the lock).
      let isAbandoned = _table._storage.withLock { storage in
        if storage._live == 0 { return true }
        var place = 0
        while place < _buckets._entries.count {
          // Rechains the live subscribers in order; changing a bucket in place keeps every
          // place valid, and removing buckets waits for the end.
          var subscriber = _buckets._entries[place]._first
          let latest = _buckets._entries[place]._latest
          var first: _SubscriberIndex?
          var kept = subscriber
          while true {
            let next = _links[Int(subscriber)]
            if storage.callback(at: subscriber) == nil {
              storage._free.append(subscriber)
            } else {
              if first == nil { first = subscriber } else { _links[Int(kept)] = subscriber }
              kept = subscriber
            }
            if subscriber == latest { break }
            subscriber = next
          }
          if let first {
            _buckets._entries[place]._first = first
            _buckets._entries[place]._latest = kept
          } else {
            emptied.append(place)
          }
          place += 1
        }
        _late.removeAll { subscriber in
          guard storage.callback(at: subscriber._index) == nil else { return false }
          storage._free.append(subscriber._index)
          return true
        }
        return false
      }
      // Moved out whole, so that their last elements are released after the writes. Last place
      // first: removing a bucket moves the last one into its place, which is then never one
      // still to remove.
      let removed: [_ElementBucket<Element>]
      if isAbandoned {
        removed = _buckets._removeAll()
        _late = []
        _links = []
      } else {
        removed = emptied.reversed().map { _buckets._remove(at: $0) }
      }
      withExtendedLifetime((removed, lateBeforeSweep)) {}
    }
    return hasNoSubscribers
  }

  /// Adds the subscriber at `subscriber` in ``_table``, who has just been given `element`, the
  /// element `id` (whose `hashValue` is `hashValue`) has in the array when its stamp is `stamp`.
  @inlinable
  func add(
    _ subscriber: _SubscriberIndex, id: Element.ID, hashValue: Int, given element: Element?,
    stamp: UInt64
  ) {
    guard stamp == _lastStamp else {
      _late.append(_LateSubscriber(id: id, last: element, index: subscriber))
      return
    }
    // Caught up: every subscriber of the bucket was last told `element`.
    file(subscriber, inBucketOf: id, hashValue: hashValue, holding: element)
  }

  /// Chains `subscriber` at the end of the bucket of `id` (whose `hashValue` is `hashValue`),
  /// or makes the bucket, which then holds `element`.
  @inlinable
  func file(
    _ subscriber: _SubscriberIndex, inBucketOf id: Element.ID, hashValue: Int,
    holding element: Element?
  ) {
    // The look-up may run user code; nothing after it does, so its answer holds for the writes.
    let place = place(of: id, hashValue: hashValue)
    // The table hands out indices densely, so this appends one link at most.
    while _links.count <= Int(subscriber) { _links.append(subscriber) }
    if let place {
      let latest = _buckets._entries[place]._latest
      _links[Int(latest)] = subscriber
      _buckets._entries[place]._latest = subscriber
    } else {
      _buckets.append(
        _ElementBucket(id: id, hashValue: hashValue, last: element, subscriber: subscriber))
    }
  }

  /// The place in ``_buckets`` of the bucket of `id`, whose `hashValue` is `hashValue`, as the
  /// table is when this returns.
  ///
  /// The identifiers' `==` is user code, which may subscribe (adding a bucket, which can move
  /// every slot), cancel and dispatch: so each candidate's identifier is copied out and compared
  /// with no access to the table open, and a comparison after which ``_ElementBuckets/_changes``
  /// moved starts the look-up again.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  func place(of id: Element.ID, hashValue: Int) -> Int? {
    let hash = _ElementBuckets<Element>.hash(of: hashValue)
    var changes = _buckets._changes
    var after: Int?
    while case (let place, let slot)? = _buckets.candidate(hash: hash, after: after) {
      let candidate = _buckets._entries[place].id
      let isMatch = candidate == id
      if _buckets._changes != changes {
        changes = _buckets._changes
        after = nil
      } else if isMatch {
        return place
      } else {
        after = slot
      }
    }
    return nil
  }

  @inlinable
  func deliverChanges(in state: S) {
    let array = self._array.value(in: state)
    guard array.currentStamp != _lastStamp else { return }
    let known = array.visitChanges(since: _lastStamp) { id in
      deliver(from: array, toBucketOf: id)
    }
    if !known {
      for id in _buckets._entries.map(\.id) { deliver(from: array, toBucketOf: id) }
    }
    _lastStamp = array.currentStamp
    if !_late.isEmpty { _settleLateSubscribers(in: array) }
  }

  @inlinable
  func deliver(from array: TrackedArray<Element>, toBucketOf id: Element.ID) {
    // Hashed once, for the group's buckets and the array's index.
    let hashValue = id.hashValue
    guard let place = place(of: id, hashValue: hashValue) else { return }
    let element = array[id: id, hashValue: hashValue]
    // Copied out, so that neither the element's `==` nor the deinitializer of the value it
    // replaces (user code either way) runs while `buckets` is being accessed. The place stays
    // the bucket's although user code runs from here on: adding a bucket moves no bucket, and
    // only the sweep removes one, which runs at the start of an update, never during one (a
    // dispatch from a delivery is queued).
    let previous = _buckets._entries[place]._last
    guard previous != element else { return }
    withExtendedLifetime(previous) { _buckets._entries[place]._last = element }
    // The ends are read first: a callback may subscribe (joining the late subscribers, as the
    // group is behind the state until this delivery ends) or cancel (which empties a table entry
    // and leaves the chain to the next sweep, at the start of an update), so the chain from
    // `first` to `latest` stays as it is until the loop ends.
    var subscriber = _buckets._entries[place]._first
    let latest = _buckets._entries[place]._latest
    while true {
      _table.callback(at: subscriber)?._call(element)
      if subscriber == latest { break }
      subscriber = _links[Int(subscriber)]
    }
  }

  /// Tells each late subscriber what changed since it was given its element, then files it in
  /// its bucket, which now holds the current element.
  @usableFromInline
  func _settleLateSubscribers(in array: TrackedArray<Element>) {
    while !_late.isEmpty {
      let settling = _late
      _late = []
      for subscriber in settling {
        let hashValue = subscriber.id.hashValue
        let element = array[id: subscriber.id, hashValue: hashValue]
        if subscriber._last != element {
          _table.callback(at: subscriber._index)?._call(element)
        }
        file(subscriber._index, inBucketOf: subscriber.id, hashValue: hashValue, holding: element)
      }
    }
  }
}
