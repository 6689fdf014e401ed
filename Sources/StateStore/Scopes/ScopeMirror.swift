#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A copy of the root's bytes where its scopes' kept slices lie, so that one comparison tells
/// a root update that left every such slice alone, without visiting the scopes.
///
/// A scope whose slice is a stored property (its origin is a byte range of the root) and
/// `Equatable` keeps the slice its view models were last evaluated on (`Store.lastSlice`). The
/// mirror holds that slice's bytes at the slice's place. After an update, if the root's bytes
/// there still equal the mirror's, the slice is the very value the scope keeps, bit for bit:
///
/// - every buffer the bytes point to is alive, because the kept slice holds it, so no freed
///   buffer's address can have been reused by a new one;
/// - no buffer the bytes point to was changed in place, because the kept slice shares it, so a
///   mutation through the root copies it first (copy-on-write) and changes the bytes.
///
/// So the scope's subscribers were evaluated on this very value, and skipping them is exact.
/// This assumes value semantics, as the byte-range skip does: a class instance the slice holds
/// can change without its reference changing, and such a change is not seen (nor is it by
/// `==` on the kept slice, which shares the instance). Bytes that differ while the values are
/// equal (padding, a value rebuilt in a new buffer) only send the scope to its `==`.
///
/// The mirror is raw memory: its bytes are copied and compared, never read as values, so it
/// retains nothing and runs nothing of the application's.
///
/// Its variables skip the run-time exclusivity check, read on every root update: each access is
/// a short read or write by the root, which calls no code of the application's (nor anything
/// that could reach this object) while it is open.
@usableFromInline
package final class _ScopeMirror {
  /// The mirrored bytes, as many as the root's state has.
  @usableFromInline let _bytes: UnsafeMutableRawPointer
  /// The size of the root's state.
  @usableFromInline let _size: Int
  /// The byte ranges of the member scopes' slices, sorted and merged: the first, kept apart so
  /// that the usual single span is read without touching an array, and the rest.
  // Unchecked: written only by the root between notifications, read by copy; no user code
  // runs while an access is open (see the type's comment and `ScopeMirrorTests`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _firstSpan: Range<Int> = 0..<0
  // Unchecked: written only by the root between notifications, read by copy; no user code
  // runs while an access is open (see the type's comment and `ScopeMirrorTests`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _otherSpans: [Range<Int>] = []
  /// How many member scopes' slices the mirror does not hold now.
  // Unchecked: written only by the root between notifications, read by copy; no user code
  // runs while an access is open (see the type's comment and `ScopeMirrorTests`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _unmirrored = 0
  /// Whether the scopes' memberships changed since the lists were built.
  // Unchecked: written only by the root between notifications, read by copy; no user code
  // runs while an access is open (see the type's comment and `ScopeMirrorTests`).
  #if !STATESTORE_CHECKED_EXCLUSIVITY
    @exclusivity(unchecked)
  #endif
  @usableFromInline var _needsRebuild = true
  /// Where the root's scopes note their cancellations: their sweep runs when notified, so an
  /// update after a cancellation notifies every scope.
  @usableFromInline let _cancellations = _CancellationLog()

  @usableFromInline
  init(size: Int) {
    self._size = size
    _bytes = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
    _bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, 1))
  }

  deinit {
    _bytes.deallocate()
  }

  /// Whether the root's bytes at `range` equal the mirror's.
  @inlinable
  func matches(_ root: UnsafeRawPointer, in range: Range<Int>) -> Bool {
    memcmp(root + range.lowerBound, _bytes + range.lowerBound, range.count) == 0
  }

  /// Whether the root's bytes equal the mirror's over every member's slice.
  ///
  /// - Complexity: O(the members' bytes).
  @inlinable
  func matchesEverySpan(_ root: UnsafeRawPointer) -> Bool {
    guard matches(root, in: _firstSpan) else { return false }
    if _otherSpans.isEmpty { return true }
    for span in _otherSpans where !matches(root, in: span) { return false }
    return true
  }

  /// Sets the spans to the sorted, merged union of `ranges`.
  ///
  /// - Complexity: O(*n* log *n*) for *n* ranges.
  func setSpans(covering ranges: [Range<Int>]) {
    var spans = Self.merged(ranges)
    _firstSpan = spans.first ?? 0..<0
    if !spans.isEmpty { spans.removeFirst() }
    _otherSpans = spans
  }

  /// Copies the root's bytes at `range` into the mirror.
  @inlinable
  func take(_ root: UnsafeRawPointer, in range: Range<Int>) {
    (_bytes + range.lowerBound).copyMemory(from: root + range.lowerBound, byteCount: range.count)
  }

  /// The sorted, merged union of `ranges`.
  ///
  /// - Complexity: O(*n* log *n*) for *n* ranges.
  static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
    var merged: [Range<Int>] = []
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = merged.last, range.lowerBound <= last.upperBound {
        merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        merged.append(range)
      }
    }
    return merged
  }
}
