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
/// subscriber cost its slot and its token and nothing more.
@usableFromInline
struct ElementBucket<Element: Equatable & Sendable>: Sendable {
  @usableFromInline var last: Element?
  @usableFromInline var slots: [ElementSlot<Element>]

  @inlinable
  init(last: Element?, slots: [ElementSlot<Element>]) {
    self.last = last
    self.slots = slots
  }
}

/// One row subscriber's callback, released by its token from any thread.
///
/// The callback is held in a struct, not as the lock's value itself: a closure that is a generic
/// lock's value is stored in its most general form, so each `withLock` read through `inout`
/// wraps it in reabstraction thunks and writes the wrapped closure back, and the chain grows by
/// two thunks with every delivery (W3 took 35 times as long). A struct's field keeps the form
/// its declaration gives it, which is the form `subscribe(to:id:_:)` receives.
@usableFromInline
final class ElementSlot<Element: Sendable>: ClearableSlot {
  /// The subscriber's closure, in the form the subscriber gave it.
  @usableFromInline
  struct Callback: Sendable {
    @usableFromInline let call: @MainActor (Element?) -> Void

    @inlinable
    init(_ call: @escaping @MainActor (Element?) -> Void) {
      self.call = call
    }
  }

  @usableFromInline let slot: Mutex<Callback?>

  @inlinable
  init(_ callback: @escaping @MainActor (Element?) -> Void) {
    slot = Mutex(Callback(callback))
  }

  /// The callback, or `nil` once cancelled; copying it out keeps it alive for the call.
  @inlinable
  var callback: Callback? { slot.withLock { $0 } }

  /// Whether the subscriber is still subscribed.
  @inlinable
  var isActive: Bool { slot.withLock { $0 != nil } }

  @usableFromInline
  func clear() {
    let released = slot.withLock { callback in
      defer { callback = nil }
      return callback
    }
    // Dropped outside the lock: the captures' deinitializers may run arbitrary code.
    _ = released
  }
}

/// A subscriber that joined while its group had changes left to deliver, with the element it
/// was given; it moves into its bucket once the group has caught up.
@usableFromInline
struct LateSubscriber<Element: Identifiable & Equatable & Sendable>: Sendable
where Element.ID: Sendable {
  @usableFromInline let id: Element.ID
  @usableFromInline let last: Element?
  @usableFromInline let slot: ElementSlot<Element>

  @inlinable
  init(id: Element.ID, last: Element?, slot: ElementSlot<Element>) {
    self.id = id
    self.last = last
    self.slot = slot
  }
}

@usableFromInline
@MainActor
final class ElementGroup<S: State, Element: Identifiable & Equatable & Sendable>: ElementGroupBase<
  S
>
where Element.ID: Sendable {
  @usableFromInline let keyPath: KeyPath<S, TrackedArray<Element>>
  // Read and written on every dispatch; main-actor state that no access holds across a call to
  // user code: a delivery copies what it compares and the slots it calls out of the bucket
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
  init(keyPath: KeyPath<S, TrackedArray<Element>>, state: S) {
    self.keyPath = keyPath
    self.lastStamp = state[keyPath: keyPath].currentStamp
    super.init(anyKeyPath: keyPath)
  }

  // The tokens hold the slots, and may outlive the store: releasing the group (with its store)
  // releases what the subscribers captured, as cancelling would.
  deinit {
    for bucket in buckets.values {
      for slot in bucket.slots { slot.clear() }
    }
    for subscriber in late { subscriber.slot.clear() }
  }

  @inlinable
  override var isEmpty: Bool { buckets.isEmpty && late.isEmpty }

  /// Drops cancelled subscribers; returns whether the group is now empty.
  ///
  /// - Complexity: O(buckets + subscribers).
  @inlinable
  func removeCancelledSlots() -> Bool {
    var emptied: [Element.ID] = []
    var index = buckets.startIndex
    while index != buckets.endIndex {
      if buckets.values[index].slots.contains(where: { !$0.isActive }) {
        // Changing a value in place keeps every index valid; removing keys waits for the end.
        buckets.values[index].slots.removeAll { !$0.isActive }
        if buckets.values[index].slots.isEmpty { emptied.append(buckets.keys[index]) }
      }
      buckets.formIndex(after: &index)
    }
    // Taken out whole, so that their last elements are released after the writes.
    let removed = emptied.compactMap { buckets.removeValue(forKey: $0) }
    late.removeAll { !$0.slot.isActive }
    return withExtendedLifetime(removed) { isEmpty }
  }

  /// Adds a subscriber who has just been given `element`, the element `id` has in `array`.
  @inlinable
  func add(
    _ slot: ElementSlot<Element>, id: Element.ID, given element: Element?,
    in array: TrackedArray<Element>
  ) {
    guard array.currentStamp == lastStamp else {
      late.append(LateSubscriber(id: id, last: element, slot: slot))
      return
    }
    // Caught up: every subscriber of the bucket was last told `element`.
    if let index = buckets.index(forKey: id) {
      buckets.values[index].slots.append(slot)
    } else {
      buckets[id] = ElementBucket(last: element, slots: [slot])
    }
  }

  @inlinable
  func deliverChanges(in state: S) {
    let array = state[keyPath: keyPath]
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
    // A copy of the slots: a callback may subscribe or cancel, changing the bucket.
    let slots = buckets.values[index].slots
    for slot in slots {
      slot.callback?.call(element)
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
          subscriber.slot.callback?.call(element)
        }
        if let index = buckets.index(forKey: subscriber.id) {
          buckets.values[index].slots.append(subscriber.slot)
        } else {
          buckets[subscriber.id] = ElementBucket(last: element, slots: [subscriber.slot])
        }
      }
    }
  }
}
