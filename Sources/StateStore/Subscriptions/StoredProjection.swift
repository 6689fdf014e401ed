/// A key path from the state to a value, read at a fixed offset when the key path names a
/// stored property reached through structs alone.
///
/// Applying a `KeyPath` runs generic code in the runtime (a metadata look-up and a copy of the
/// whole root), about as much as the rest of a row subscription: subscribing and every dispatch
/// to an element group read the group's array, so the offset is worked out once, when the group
/// is made, and each read copies the array alone.
@usableFromInline
struct _StoredProjection<Root, Value> {
  @usableFromInline let _keyPath: KeyPath<Root, Value>
  /// Where the value sits inside the root, or `nil` when the key path is computed or crosses a
  /// reference, and must be applied.
  @usableFromInline let _offset: Int?

  @inlinable
  init(_ keyPath: KeyPath<Root, Value>) {
    self._keyPath = keyPath
    self._offset = MemoryLayout<Root>.offset(of: keyPath)
  }

  /// The value in the root at `root`, read at the key path's offset; `nil` when the key path
  /// has none (use ``value(in:)``).
  ///
  /// The only work done while `root` is read is a copy of the value itself, which runs no code
  /// of the application's (a copy retains, it calls nothing), so the root cannot change during
  /// the read. A key path without an offset may run a getter of the application's, which must
  /// not run while the caller holds an access to the root: so it is not applied here.
  @inlinable
  func value(at root: UnsafePointer<Root>) -> Value? {
    guard let _offset else { return nil }
    // `MemoryLayout.offset(of:)` promises that the value the key path reads sits at this
    // offset from the root's address, in memory bound to `Value`.
    return UnsafeRawPointer(root).advanced(by: _offset).assumingMemoryBound(to: Value.self).pointee
  }

  /// The value in `root`.
  @inlinable
  func value(in root: Root) -> Value {
    guard _offset != nil, let value = withUnsafePointer(to: root, value(at:)) else {
      return root[keyPath: _keyPath]
    }
    return value
  }
}

extension _StoredProjection {
  /// The lookup table of the array at `root`, taken where the array is kept: the array's other
  /// buffers are neither retained nor released; `nil` when the key path has no offset.
  ///
  /// As with ``value(at:)``, nothing but copies of references runs while `root` is read.
  @inlinable
  func lookupTable<Element>(
    at root: UnsafePointer<Root>
  ) -> TrackedArray<Element>._LookupTable? where Value == TrackedArray<Element> {
    guard let _offset else { return nil }
    // See `value(at:)`: the array sits at this offset, in memory bound to its type.
    return UnsafeRawPointer(root).advanced(by: _offset).assumingMemoryBound(to: Value.self).pointee
      .lookupTable
  }
}
