import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a lock of one atomic flag, for the short sections that a row subscriber's
/// table runs: filing a callback, copying one out, emptying an entry, sweeping.
///
/// Not `Mutex`: on Linux a contended `Mutex` hands the lock over inside the kernel, which
/// ThreadSanitizer cannot see, so a token released on another thread during a delivery was
/// reported as a race that the lock prevents. Every step of this lock is an atomic operation in
/// this module, which ThreadSanitizer follows. A waiter yields its thread between attempts, so a
/// holder preempted mid-section is not starved by it.
///
/// `package`, for the test clock, the effect registry and `StatePersistence`'s writer queue,
/// whose locks ThreadSanitizer must see for the same reason: their bodies, too, are plain
/// collection work that calls no user code.
@usableFromInline
package final class _SpinLocked<Value: Sendable>: Sendable {
  @usableFromInline let _isLocked = Atomic<Bool>(false)
  // `nonisolated(unsafe)`, proof: `value` is reached only inside `withLock`, after a successful
  // acquiring compare-exchange of `isLocked` from `false` to `true` and before the releasing
  // store of `false`, so at most one thread at a time touches it, and each holder sees every
  // write of the one before. `body` gets it `inout`, which cannot escape the call; a `body`
  // that called `withLock` again would spin forever rather than overlap an access, and no
  // caller in this module does (the bodies are plain array and integer work, and release what
  // they take only after the lock is released; so are those of the package's other callers:
  // the test clock's, the effect registry's, and `StatePersistence`'s writer, which runs plain
  // bookkeeping and resumes continuations after releasing it). The type is `package`, so no code outside the
  // package can reach it, and `value` is internal, so only this module's code, which touches it
  // in `withLock` alone, can.
  @usableFromInline nonisolated(unsafe) var _value: Value

  /// Creates the lock around `value`.
  @inlinable
  package init(_ value: Value) {
    self._value = value
  }

  /// Runs `body` with the value while holding the lock.
  @inlinable
  package func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    while !_isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
    {
      while _isLocked.load(ordering: .relaxed) { sched_yield() }
    }
    defer { _isLocked.store(false, ordering: .releasing) }
    return body(&_value)
  }
}
