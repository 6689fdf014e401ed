#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The system calls persistence makes, one method per call: the seam where tests inject faults
/// and power cuts.
///
/// Each method does what its POSIX call does and throws ``SystemCallFailure`` with the call's
/// `errno` where the call returns -1. Nothing above this protocol touches the disk, so a test
/// implementation sees, and can fail or cut short, every call: ``POSIXCalls`` is the real one.
package protocol SystemCalls: Sendable {
  /// `open(path, flags, mode)`: a new descriptor.
  func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallFailure) -> Int32
  /// `pread`: reads up to `buffer.count` bytes at `offset`; 0 at the end of the file.
  func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int)
    throws(SystemCallFailure) -> Int
  /// `pwrite`: writes up to `bytes.count` bytes at `offset`; returns how many it wrote.
  func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallFailure) -> Int
  /// `fsync`: forces the file's data, or a directory's entries, to the disk.
  func synchronize(_ descriptor: Int32) throws(SystemCallFailure)
  /// `ftruncate`: cuts or extends the file to `length` bytes.
  func truncate(_ descriptor: Int32, to length: Int) throws(SystemCallFailure)
  /// The file's size, from `fstat`.
  func size(_ descriptor: Int32) throws(SystemCallFailure) -> Int
  /// `flock(descriptor, operation)`.
  func lock(_ descriptor: Int32, operation: Int32) throws(SystemCallFailure)
  /// `close`.
  func close(_ descriptor: Int32) throws(SystemCallFailure)
  /// `rename(from, to)`: replaces `to` atomically.
  func rename(_ from: String, to: String) throws(SystemCallFailure)
  /// `unlink(path)`.
  func unlink(_ path: String) throws(SystemCallFailure)
  /// `mkdir(path, mode)`.
  func makeDirectory(_ path: String, mode: mode_t) throws(SystemCallFailure)
  /// The names in the directory at `path`, without `.` and `..`, in no particular order.
  func contentsOfDirectory(_ path: String) throws(SystemCallFailure) -> [String]
  /// Waits `microseconds` between two tries of a lock that another process holds: `usleep`
  /// unless a test counts the waits instead.
  func pause(microseconds: Int)
}

extension SystemCalls {
  /// Sleeps for `microseconds`.
  package func pause(microseconds: Int) {
    _ = usleep(useconds_t(clamping: microseconds))
  }
}

/// The kinds of call in ``SystemCalls``, for counting and failing them.
package enum SystemCallKind: String, CaseIterable, Sendable, Hashable {
  case open, read, write, synchronize, truncate, size, lock, close, rename, unlink
  case makeDirectory, contentsOfDirectory
}

/// A system call that failed, with its `errno`.
package struct SystemCallFailure: Error, Hashable, Sendable {
  /// The call that failed.
  package var kind: SystemCallKind
  /// Its `errno`.
  package var code: Int32

  package init(_ kind: SystemCallKind, code: Int32) {
    self.kind = kind
    self.code = code
  }

  /// The text of the `errno`, as `strerror` gives it.
  package var reason: String { String(cString: strerror(code)) }
}
