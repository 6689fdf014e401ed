/// The subscribers of the elements of one ``TrackedArray`` in the state.
@usableFromInline
@MainActor
class ElementGroupBase<S: State> {
  let anyKeyPath: AnyKeyPath

  /// Delivers the changes that `state` holds since the last call.
  ///
  /// A closure rather than an overridden method: `subscribe(to:id:_:)` is inlined into the
  /// application and sets it there, so delivery runs as code specialised for the application's
  /// state and element types; an override would run generic code with metadata look-ups.
  @usableFromInline var refresh: @MainActor (S) -> Void = { _ in }

  @usableFromInline
  init(anyKeyPath: AnyKeyPath) {
    self.anyKeyPath = anyKeyPath
  }

  var isEmpty: Bool { true }

  /// Drops cancelled subscribers; returns whether the group is now empty.
  func removeCancelled() -> Bool { true }
}

@usableFromInline
@MainActor
final class ElementEntry<Element: Equatable> {
  @usableFromInline let slot: CallbackSlot<@MainActor (Element?) -> Void>
  /// Assigned just before each delivery, never held across the subscriber's call.
  @exclusivity(unchecked) @usableFromInline var last: Element?

  @usableFromInline
  init(last: Element?, callback: @escaping @MainActor (Element?) -> Void) {
    self.last = last
    self.slot = CallbackSlot(callback)
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
  // a subscriber, so the run-time exclusivity check only costs time.
  @exclusivity(unchecked) @usableFromInline var buckets: [Element.ID: [ElementEntry<Element>]] =
    [:]
  @exclusivity(unchecked) @usableFromInline var lastStamp: UInt64

  @usableFromInline
  init(keyPath: KeyPath<S, TrackedArray<Element>>, state: S) {
    self.keyPath = keyPath
    self.lastStamp = state[keyPath: keyPath].currentStamp
    super.init(anyKeyPath: keyPath)
  }

  override var isEmpty: Bool { buckets.isEmpty }

  override func removeCancelled() -> Bool {
    for (id, bucket) in buckets where bucket.contains(where: { !$0.slot.isActive }) {
      let remaining = bucket.filter(\.slot.isActive)
      buckets[id] = remaining.isEmpty ? nil : remaining
    }
    return buckets.isEmpty
  }

  @inlinable
  func deliverChanges(in state: S) {
    let array = state[keyPath: keyPath]
    guard array.currentStamp != lastStamp else { return }
    let known = array.visitChanges(since: lastStamp) { id in
      if let bucket = buckets[id] { deliver(array[id: id], to: bucket) }
    }
    if !known {
      for (id, bucket) in buckets { deliver(array[id: id], to: bucket) }
    }
    lastStamp = array.currentStamp
  }

  @inlinable
  func deliver(_ element: Element?, to bucket: [ElementEntry<Element>]) {
    for entry in bucket where entry.last != element {
      entry.last = element
      entry.slot.callback?(element)
    }
  }
}
