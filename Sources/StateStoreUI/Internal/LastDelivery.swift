/// The last value a subscriber received, to deliver only the values that differ from it.
@MainActor
@usableFromInline
final class LastDelivery<Value: Equatable> {
  // Read and written only inside `isNew`, which calls no other code.
  @exclusivity(unchecked) @usableFromInline var last: Value?
  @exclusivity(unchecked) @usableFromInline var hasDelivered = false

  @usableFromInline
  init() {}

  /// Whether `value` must be delivered: the first value, even `nil`, or one that differs from
  /// the last; records it as delivered if so.
  @inlinable
  func isNew(_ value: Value?) -> Bool {
    guard !hasDelivered || value != last else { return false }
    hasDelivered = true
    last = value
    return true
  }
}
