extension Store {
  /// Delivers the element with `id` at once, and then only when that element changes.
  ///
  /// This is the subscription for rows of a large list: the store learns from the
  /// ``TrackedArray`` which elements an updater touched and evaluates only their subscribers, so
  /// 10,000 row subscribers cost what the changed rows cost. `nil` means no element has `id`
  /// (it was removed, or not added yet).
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
    let group: ElementGroup<S, Element>
    if let existing = elementGroups[keyPath] as? ElementGroup<S, Element> {
      group = existing
    } else {
      group = ElementGroup(keyPath: keyPath, state: liveState)
      group.refresh = { [unowned group] state in group.deliverChanges(in: state) }
      elementGroups[keyPath] = group
      elementOrder.append(group)
      refreshHasObservers()
    }
    let current = liveState[keyPath: keyPath][id: id]
    let entry = ElementEntry(last: current, callback: onChange)
    group.buckets[id, default: []].append(entry)
    runAsStoreCallback { onChange(current) }
    return Subscription { [weak self, weak entry] in
      entry?.slot.clear()
      self?.noteCancellation()
    }
  }
}
