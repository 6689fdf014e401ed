extension Store {
  /// Delivers the element with `id` at once, and then only when that element changes.
  ///
  /// This is the subscription for rows of a large list: the store learns from the
  /// ``TrackedArray`` which elements an updater touched and evaluates only their subscribers, so
  /// 10,000 row subscribers cost what the changed rows cost. `nil` means no element has `id`
  /// (it was removed, or not added yet). A scope whose slice is gone (its root released, its
  /// element removed) delivers `nil` once and gives a token that does nothing.
  ///
  /// ```swift
  /// let token = store.subscribe(to: \.todos, id: todo.id) { row.render($0) }
  /// ```
  ///
  /// - Returns: The token that keeps the subscription alive.
  /// - Complexity: O(1) to subscribe; per dispatch, O(elements changed + their subscribers).
  ///   When more elements change in one dispatch than the array's journal holds, every subscribed
  ///   element is compared once.
  @inlinable
  public func subscribe<Element: Identifiable & Equatable & Sendable>(
    to keyPath: KeyPath<S, TrackedArray<Element>>, id: Element.ID,
    _ onChange: @escaping @MainActor (Element?) -> Void
  ) -> Subscription where Element.ID: Sendable {
    checkNotInsideUpdater("subscribe")
    guard let state = liveState else {
      runAsStoreCallback { onChange(nil) }
      return Subscription {}
    }
    let group = elementGroup(for: keyPath, state: state)
    let subscriber = group._table.add(onChange)
    // From the read of the list to the first value, user code runs (the identifier's
    // `hash(into:)` and `==`, a computed key path's getter, `onChange`): with the store marked
    // busy, a dispatch it makes waits until the subscriber is filed and has its first value, so
    // the element, its stamp and the group's buckets stay as read.
    runAsStoreCallback {
      let elements = lookupTable(of: group)
      // Hashed once, for the array's index and the group's buckets.
      let hashValue = id.hashValue
      let current = elements[id: id, hashValue: hashValue]
      group.add(subscriber, id: id, hashValue: hashValue, given: current, stamp: elements._stamp)
      onChange(current)
    }
    return Subscription(releasing: subscriber, from: group._table)
  }

  /// The elements of the array `group` watches and their index, as they are in the live state;
  /// at the root, read where the state is kept, without copying the rest of the state or the
  /// array's journal.
  @inlinable
  func lookupTable<Element: Identifiable & Equatable & Sendable>(
    of group: _ElementGroup<S, Element>
  ) -> TrackedArray<Element>._LookupTable where Element.ID: Sendable {
    // An access to the engine's `currentState` beside the updater's (see the top of
    // `Store/RootEngine.swift`), which cannot overlap it: the caller has
    // checked that no updater is running (`isApplyingUpdater`, set for the updater's whole
    // access), and `lookupTable(at:)` runs no code of the
    // application's while the access is open (at the key path's offset, it copies two buffers'
    // references out; with no offset, it returns `nil` at once), so no dispatch can begin inside
    // it. A method rather than a closure: a closure formed here would be isolated to the main
    // actor, and checked at run time to be running there, at every call.
    guard _isRoot,
      let table = withUnsafePointer(to: &_rootEngine._currentState, group._array.lookupTable(at:))
    else {
      // A scope's list, or one that a getter of the application's gives (a computed key path, or
      // one through a class): read from a copy of the state, with no access to it open.
      // A scope whose slice went since the subscriber checked (a getter of the application's
      // released the root) has no elements.
      guard let state = liveState else { return TrackedArray<Element>().lookupTable }
      return group._array.value(in: state).lookupTable
    }
    return table
  }

  /// The group of `keyPath`'s subscribers, made on first use.
  ///
  /// Subscribing a list's rows asks for the same key path thousands of times in a row, so the
  /// group found last is checked first, by the key path's identity, before hashing the key path.
  @inlinable
  func elementGroup<Element: Identifiable & Equatable & Sendable>(
    for keyPath: KeyPath<S, TrackedArray<Element>>, state: S
  ) -> _ElementGroup<S, Element> where Element.ID: Sendable {
    // The same key path object has the same type, `KeyPath<S, TrackedArray<Element>>`, and the
    // group made for it is an `ElementGroup<S, Element>`: the cast cannot fail, so it skips the
    // dynamic cast and its generic metadata look-up.
    if let recent = _recentElementGroup, recent._anyKeyPath === keyPath {
      return unsafeDowncast(recent, to: _ElementGroup<S, Element>.self)
    }
    let group: _ElementGroup<S, Element>
    if let existing = _elementGroups[keyPath] as? _ElementGroup<S, Element> {
      group = existing
    } else {
      // Made here, in code specialised for the application, so that its tokens' releases are.
      group = _ElementGroup(
        keyPath: keyPath, state: state, table: _SubscriberTable(noting: _cancellationLog))
      _elementGroups[keyPath] = group
      _elementOrder.append(group)
      _refreshHasObservers()
    }
    _recentElementGroup = group
    return group
  }
}
