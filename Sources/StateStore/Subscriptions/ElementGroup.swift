import Synchronization

/// The subscribers of the elements of one ``TrackedArray`` in the state.
@usableFromInline
@MainActor
class ElementGroupBase<S: State> {
  @usableFromInline let anyKeyPath: AnyKeyPath

  /// Delivers the changes that `state` holds since the last call.
  ///
  /// A closure rather than an overridden method: `subscribe(to:id:_:)` is inlined into the
  /// application and sets it there, so delivery runs as code specialised for the application's
  /// state and element types; an override would run generic code with metadata look-ups.
  ///
  /// Set once, right after the group is made, and read on every dispatch: the read is a copy,
  /// never open while the closure runs, so it skips the run-time exclusivity check.
  @exclusivity(unchecked) @usableFromInline var refresh: @MainActor (S) -> Void = { _ in }

  @usableFromInline
  init(anyKeyPath: AnyKeyPath) {
    self.anyKeyPath = anyKeyPath
  }

  var isEmpty: Bool { true }

  /// Drops cancelled subscribers; returns whether the group is now empty.
  ///
  /// A closure set where the group is made, for the same reason as ``refresh``: subscribing and
  /// cancelling thousands of rows makes the sweep as hot as delivery. Set once, read by copy.
  @exclusivity(unchecked) @usableFromInline var removeCancelled: @MainActor () -> Bool = { true }
}

/// The subscribers of one element, and the element they were last told about.
///
/// The last element is kept once per bucket rather than once per subscriber: every subscriber in
/// a bucket has been told the same element (see `ElementGroup.late`), which is what lets a
/// subscriber cost its token and its entry in the group's table and nothing more.
@usableFromInline
struct ElementBucket<Element: Equatable & Sendable>: Sendable {
  @usableFromInline var last: Element?
  /// The subscribers' indices in the group's ``SubscriberTable``.
  @usableFromInline var subscribers: [SubscriberIndex]

  @inlinable
  init(last: Element?, subscribers: [SubscriberIndex]) {
    self.last = last
    self.subscribers = subscribers
  }
}

/// A subscriber that joined while its group had changes left to deliver, with the element it
/// was given; it moves into its bucket once the group has caught up.
@usableFromInline
struct LateSubscriber<Element: Identifiable & Equatable & Sendable>: Sendable
where Element.ID: Sendable {
  @usableFromInline let id: Element.ID
  @usableFromInline let last: Element?
  /// The subscriber's index in the group's ``SubscriberTable``.
  @usableFromInline let index: SubscriberIndex

  @inlinable
  init(id: Element.ID, last: Element?, index: SubscriberIndex) {
    self.id = id
    self.last = last
    self.index = index
  }
}

@usableFromInline
@MainActor
final class ElementGroup<S: State, Element: Identifiable & Equatable & Sendable>: ElementGroupBase<
  S
>
where Element.ID: Sendable {
  /// Reads the group's array out of the state.
  @usableFromInline let array: StoredProjection<S, TrackedArray<Element>>
  /// The subscribers' callbacks; their tokens release them from any thread.
  @usableFromInline let table: SubscriberTable<Element>
  // Read and written on every dispatch; main-actor state that no access holds across a call to
  // user code: a delivery copies what it compares and the indices it calls out of the bucket
  // first, and a write that replaces or removes an element keeps the old one alive until the
  // write is over (so its deinitializer runs outside). So the run-time exclusivity check only
  // costs time.
  @exclusivity(unchecked) @usableFromInline var buckets: [Element.ID: ElementBucket<Element>] =
    [:]
  @exclusivity(unchecked) @usableFromInline var lastStamp: UInt64
  /// Subscribers that joined while the group was behind the state (from a listener, or from
  /// another subscriber during this group's delivery): they were given an element the rest of
  /// their bucket has not been told about yet, so they keep it until the group catches up.
  @exclusivity(unchecked) @usableFromInline var late: [LateSubscriber<Element>] = []

  @usableFromInline
  init(keyPath: KeyPath<S, TrackedArray<Element>>, state: S, table: SubscriberTable<Element>) {
    self.array = StoredProjection(keyPath)
    self.lastStamp = state[keyPath: keyPath].currentStamp
    self.table = table
    super.init(anyKeyPath: keyPath)
  }

  // The tokens hold the table, and may outlive the store: releasing the group (with its store)
  // releases what the subscribers captured, as cancelling would.
  deinit {
    table.releaseAll()
  }

  @inlinable
  override var isEmpty: Bool { buckets.isEmpty && late.isEmpty }

  /// Drops cancelled subscribers and frees their indices; returns whether the group is now empty.
  ///
  /// - Complexity: O(1) when every subscriber is cancelled (a list going away);
  ///   otherwise O(buckets + subscribers).
  @inlinable
  func removeCancelledSlots() -> Bool {
    var emptied: [Element.ID] = []
    // One lock for the whole sweep; nothing inside calls user code (the callbacks were released
    // by their tokens, and the buckets' elements are released below, after the lock).
    let isAbandoned = table.storage.withLock { storage in
      if storage.live == 0 { return true }
      var index = buckets.startIndex
      while index != buckets.endIndex {
        if buckets.values[index].subscribers.contains(where: { storage.callback(at: $0) == nil }) {
          // Changing a value in place keeps every index valid; removing keys waits for the end.
          buckets.values[index].subscribers.removeAll { subscriber in
            guard storage.callback(at: subscriber) == nil else { return false }
            storage.free.append(subscriber)
            return true
          }
          if buckets.values[index].subscribers.isEmpty { emptied.append(buckets.keys[index]) }
        }
        buckets.formIndex(after: &index)
      }
      late.removeAll { subscriber in
        guard storage.callback(at: subscriber.index) == nil else { return false }
        storage.free.append(subscriber.index)
        return true
      }
      return false
    }
    if isAbandoned {
      // Taken out whole, so that the last elements are released after the writes.
      let removed = (buckets, late)
      buckets = [:]
      late = []
      return withExtendedLifetime(removed) { true }
    }
    // Taken out whole, so that their last elements are released after the writes.
    let removed = emptied.compactMap { buckets.removeValue(forKey: $0) }
    return withExtendedLifetime(removed) { isEmpty }
  }

  /// Adds the subscriber at `subscriber` in ``table``, who has just been given `element`, the
  /// element `id` has in `array`.
  @inlinable
  func add(
    _ subscriber: SubscriberIndex, id: Element.ID, given element: Element?,
    in array: TrackedArray<Element>
  ) {
    guard array.currentStamp == lastStamp else {
      late.append(LateSubscriber(id: id, last: element, index: subscriber))
      return
    }
    // Caught up: every subscriber of the bucket was last told `element`.
    if let index = buckets.index(forKey: id) {
      buckets.values[index].subscribers.append(subscriber)
    } else {
      buckets[id] = ElementBucket(last: element, subscribers: [subscriber])
    }
  }

  @inlinable
  func deliverChanges(in state: S) {
    let array = self.array.value(in: state)
    guard array.currentStamp != lastStamp else { return }
    let known = array.visitChanges(since: lastStamp) { id in
      deliver(from: array, toBucketOf: id)
    }
    if !known {
      for id in Array(buckets.keys) { deliver(from: array, toBucketOf: id) }
    }
    lastStamp = array.currentStamp
    if !late.isEmpty { settleLateSubscribers(in: array) }
  }

  @inlinable
  func deliver(from array: TrackedArray<Element>, toBucketOf id: Element.ID) {
    guard let index = buckets.index(forKey: id) else { return }
    let element = array[id: id]
    // Copied out, so that neither the element's `==` nor the deinitializer of the value it
    // replaces (user code either way) runs while `buckets` is being accessed.
    let previous = buckets.values[index].last
    guard previous != element else { return }
    withExtendedLifetime(previous) { buckets.values[index].last = element }
    // A copy of the indices: a callback may subscribe or cancel, changing the bucket.
    let subscribers = buckets.values[index].subscribers
    for subscriber in subscribers {
      table.callback(at: subscriber)?.call(element)
    }
  }

  /// Tells each late subscriber what changed since it was given its element, then files it in
  /// its bucket, which now holds the current element.
  @usableFromInline
  func settleLateSubscribers(in array: TrackedArray<Element>) {
    while !late.isEmpty {
      let settling = late
      late = []
      for subscriber in settling {
        let element = array[id: subscriber.id]
        if subscriber.last != element {
          table.callback(at: subscriber.index)?.call(element)
        }
        if let index = buckets.index(forKey: subscriber.id) {
          buckets.values[index].subscribers.append(subscriber.index)
        } else {
          buckets[subscriber.id] = ElementBucket(last: element, subscribers: [subscriber.index])
        }
      }
    }
  }
}
