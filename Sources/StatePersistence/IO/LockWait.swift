#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension OpenFile {
  /// How long, in microseconds, a lock is waited for silently before the wait is announced.
  package static let quietLockWait = 1_000_000

  /// Takes the advisory lock, exclusive or shared, waiting for other processes to release
  /// theirs, and says so if the wait is long.
  ///
  /// Tries without blocking, pausing (``SystemCalls/pause(microseconds:)``) between tries;
  /// after about a second it calls `announceWait` once and then blocks. Ctrl-C (SIGINT, whose
  /// default action ends the process) still works while waiting.
  package func lock(exclusive: Bool, announceWait: (() -> Void)?) throws(PersistenceError) {
    let operation = exclusive ? LOCK_EX : LOCK_SH
    var waited = 0
    var interval = 1_000
    while waited < Self.quietLockWait {
      if try tryLock(operation) { return }
      system.pause(microseconds: interval)
      waited += interval
      interval = min(interval * 2, 50_000)
    }
    if try tryLock(operation) { return }
    announceWait?()
    do { try lock(operation) } catch { throw .failed("lock", path, error) }
  }

  /// Takes the lock if no other process holds it; `false` if one does.
  private func tryLock(_ operation: Int32) throws(PersistenceError) -> Bool {
    do {
      try lock(operation | LOCK_NB)
      return true
    } catch  where error.code == EWOULDBLOCK {
      return false
    } catch {
      throw .failed("lock", path, error)
    }
  }
}
