import Synchronization

/// A row subscriber's place in its group's ``_SubscriberTable``.
///
/// 32 bits, so that the group's chain of links takes half the memory: reaching 2³² live
/// subscribers in one group would take more than 200 GiB of tokens alone.
@usableFromInline
typealias _SubscriberIndex = UInt32

/// What a row subscriber's token releases: its entry in its element group's table.
///
/// Not generic, so that a ``Subscription`` refers to it with one word; the table of one element
/// type is its only subclass.
// `@unchecked Sendable` because a non-final class cannot be checked: this base holds only a
// `let` of a `Sendable` type, and its one subclass, `SubscriberTable` (final, internal to this
// module), keeps every mutable field inside a `SpinLocked` and the rest in `let`s of `Sendable` types.
// No other subclass can exist (the class is not `open`), so every access from any thread goes
// through that lock.
@usableFromInline
class _SubscriberTableBase: @unchecked Sendable {
  /// The store's count of cancellations since its last sweep.
  @usableFromInline let _cancellations: _CancellationLog
  /// Releases an entry of the table it is given, which is always `self`.
  ///
  /// A closure formed by the subclass's inlinable initializer, as ``_ObserverGroup`` describes
  /// for the store's groups: a token's release runs code specialised for the element type.
  @usableFromInline let _releaseEntry: @Sendable (_SubscriberTableBase, _SubscriberIndex) -> Void

  @usableFromInline
  init(
    noting cancellations: _CancellationLog,
    releaseEntry: @escaping @Sendable (_SubscriberTableBase, _SubscriberIndex) -> Void
  ) {
    self._cancellations = cancellations
    self._releaseEntry = releaseEntry
  }

  /// Releases the callback at `index`, and what it captured, at once; safe from any thread.
  @inlinable
  final func release(_ index: _SubscriberIndex) {
    _releaseEntry(self, index)
  }
}

/// The callbacks of one element group's subscribers, each at a fixed index, behind one lock.
///
/// A row subscriber is its token and its entry here, nothing more: the token holds this table
/// and the index, the group's buckets chain the index, and the table holds the callback. So the
/// store reaches a subscriber without keeping its token alive, and releasing the token (on any
/// thread) empties the entry under the lock, releasing the callback at once. The store never
/// refers to a token at all, so no token can be touched after it is freed.
///
/// An emptied index is reused only after the group's sweep has removed it from every bucket and
/// from the late subscribers, so an index in a bucket always names that bucket's subscriber or
/// an emptied entry. The store sweeps only at the start of an update, never while one of the
/// group's deliveries (which walk a bucket's chain) is under way.
// `@unchecked Sendable` restates the base's conformance, which the compiler cannot check for a
// subclass of a non-final class: every mutable field is inside `storage`, a `SpinLocked`, and
// the rest is `let`s of `Sendable` types, so every access from any thread goes through the
// lock. No user code runs under it: a callback is moved out before it is called or released
// (`callback(at:)` copies it out, `take` and `releaseAll` move it out), and only copies that
// the table itself outlives are dropped inside.
@usableFromInline
final class _SubscriberTable<Element: Sendable>: _SubscriberTableBase, @unchecked Sendable {
  /// A subscriber's closure, in the form the subscriber gave it.
  ///
  /// Wrapped in a struct: a closure stored as a generic container's value is kept in its most
  /// general form, and each read through `inout` wraps it in reabstraction thunks.
  @usableFromInline
  struct _Callback: Sendable {
    @usableFromInline let _call: @MainActor (Element?) -> Void

    @inlinable
    init(_ call: @escaping @MainActor (Element?) -> Void) {
      self._call = call
    }
  }

  @usableFromInline
  struct _Storage: Sendable {
    /// Fixed-size pages, so that a large group grows without copying what it holds.
    @usableFromInline var _pages: [[_Callback?]] = []
    /// Emptied indices that no bucket refers to any more.
    @usableFromInline var _free: [_SubscriberIndex] = []
    /// Entries holding a callback.
    @usableFromInline var _live = 0

    @inlinable
    init() {}

    @inlinable
    static var pageSize: Int { 1024 }

    /// The page and the slot in it of `index`.
    @inlinable
    static func location(of index: _SubscriberIndex) -> (page: Int, slot: Int) {
      let (page, slot) = index.quotientAndRemainder(dividingBy: _SubscriberIndex(pageSize))
      return (Int(page), Int(slot))
    }

    @inlinable
    func callback(at index: _SubscriberIndex) -> _Callback? {
      let (page, slot) = Self.location(of: index)
      guard page < _pages.count, slot < _pages[page].count else { return nil }
      return _pages[page][slot]
    }

    @inlinable
    mutating func add(_ callback: _Callback) -> _SubscriberIndex {
      _live += 1
      if let index = _free.popLast() {
        let (page, slot) = Self.location(of: index)
        _pages[page][slot] = callback
        return index
      }
      if _pages.isEmpty || _pages[_pages.count - 1].count == Self.pageSize {
        var page: [_Callback?] = []
        // The first page grows with the group; a group that fills one will fill more.
        if !_pages.isEmpty { page.reserveCapacity(Self.pageSize) }
        _pages.append(page)
      }
      let last = _pages.count - 1
      _pages[last].append(callback)
      return _SubscriberIndex(last * Self.pageSize + _pages[last].count - 1)
    }

    @inlinable
    mutating func take(_ index: _SubscriberIndex) -> _Callback? {
      let (page, slot) = Self.location(of: index)
      guard page < _pages.count, slot < _pages[page].count else { return nil }
      // Moved out rather than copied and then overwritten: no retain and release of the
      // callback's context.
      guard let callback = _pages[page][slot].take() else { return nil }
      _live -= 1
      return callback
    }
  }

  @usableFromInline let _storage = _SpinLocked(_Storage())

  @inlinable
  init(noting cancellations: _CancellationLog) {
    // `releaseEntry` is only ever called by `release(_:)` with `self`, and this initializer
    // sets it for this table alone, so the table it gets is a `SubscriberTable<Element>`: the
    // cast cannot fail, and skips the dynamic cast's metadata look-up.
    super.init(noting: cancellations) { table, index in
      unsafeDowncast(table, to: _SubscriberTable<Element>.self).releaseInPlace(index)
    }
  }

  /// Holds `callback` until its index is released; returns the index.
  @inlinable
  func add(_ callback: @escaping @MainActor (Element?) -> Void) -> _SubscriberIndex {
    _storage.withLock { $0.add(_Callback(callback)) }
  }

  /// The callback at `index`, or `nil` once released; copying it out keeps it alive for the call.
  @inlinable
  func callback(at index: _SubscriberIndex) -> _Callback? {
    _storage.withLock { $0.callback(at: index) }
  }

  /// Releases the callback at `index`, and what it captured, at once; safe from any thread.
  @inlinable
  func releaseInPlace(_ index: _SubscriberIndex) {
    let released = _storage.withLock { $0.take(index) }
    guard released != nil else { return }
    _cancellations._note()
    // Dropped here, outside the lock: the captures' deinitializers may run arbitrary code,
    // cancelling other subscribers of this table among it.
    _ = released
  }

  /// Releases every callback, as the group goes away with its store; tokens may outlive both.
  @usableFromInline
  func _releaseAll() {
    let released = _storage.withLock { storage in
      defer { storage = _Storage() }
      return storage._pages
    }
    _ = released
  }
}
