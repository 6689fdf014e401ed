/// The last value a subscriber received, to deliver only the values that differ from it.
@MainActor
@usableFromInline
final class _LastDelivery<Value: Equatable> {
  // Main-actor state accessed only inside `isNew`, by instantaneous reads and writes that call
  // no user code: `!=` receives a copy of `last`, so no access is open while the view model's
  // `==` runs, and the value `last` held is swapped out and released after the write, so its
  // deinitializer runs with no access open either. The object is internal, so no other code can
  // reach it. The run-time exclusivity check would only cost time on every delivery.
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _last: Value?
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _hasDelivered = false

  @usableFromInline
  init() {}

  /// Whether `value` must be delivered: the first value, even `nil`, or one that differs from
  /// the last; records it as delivered if so.
  @inlinable
  func isNew(_ value: Value?) -> Bool {
    guard !_hasDelivered || value != _last else { return false }
    _hasDelivered = true
    var previous = value
    swap(&_last, &previous)
    return true
  }
}
