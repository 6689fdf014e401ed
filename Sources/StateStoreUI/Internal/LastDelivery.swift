/// The last value a subscriber received, to deliver only the values that differ from it.
@MainActor
@usableFromInline
final class _LastDelivery<Value: Equatable> {
  @usableFromInline var _last: Value?
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
