#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Every POSIX call the store makes, as replaceable closures: the real calls by default.
///
/// Each closure behaves like the call it stands for: it returns -1 (or a negative count) and
/// sets `errno` on failure. Tests swap in closures that fail a chosen call with a chosen `errno`
/// to check that a failing disk never breaks the store's contract (see ``FileTodoStorage``).
struct SystemCalls: Sendable {
  /// `open(path, flags, mode)`.
  var open: @Sendable (_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
  /// `pwrite(descriptor, buffer, count, offset)`.
  var write:
    @Sendable (_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: Int) ->
      Int
  /// `pread(descriptor, buffer, count, offset)`.
  var read:
    @Sendable (
      _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: Int
    ) -> Int
  /// `fsync(descriptor)`.
  var sync: @Sendable (_ descriptor: Int32) -> Int32
  /// `ftruncate(descriptor, length)`.
  var truncate: @Sendable (_ descriptor: Int32, _ length: Int) -> Int32
  /// `rename(from, to)`.
  var rename: @Sendable (_ from: String, _ to: String) -> Int32
  /// `close(descriptor)`.
  var close: @Sendable (_ descriptor: Int32) -> Int32
  /// `mkdir(path, mode)`.
  var makeDirectory: @Sendable (_ path: String, _ mode: mode_t) -> Int32
  /// `unlink(path)`.
  var unlink: @Sendable (_ path: String) -> Int32
  /// The file's size from `fstat(descriptor)`, or -1.
  var size: @Sendable (_ descriptor: Int32) -> Int
  /// `flock(descriptor, operation)`.
  var lock: @Sendable (_ descriptor: Int32, _ operation: Int32) -> Int32
  /// Waits `microseconds` between two tries of a lock that another process holds.
  var pause: @Sendable (_ microseconds: Int) -> Void

  /// The operating system's calls.
  static let real = SystemCalls(
    open: posixOpen, write: posixWrite, read: posixRead, sync: posixSync,
    truncate: posixTruncate, rename: posixRename, close: posixClose,
    makeDirectory: posixMakeDirectory, unlink: posixUnlink, size: posixSize, lock: posixLock,
    pause: posixPause)
}

// The real calls, at file scope where their names do not clash with `SystemCalls`' properties.

private func posixOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  open(path, flags, mode)
}

private func posixWrite(
  _ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ offset: Int
) -> Int {
  pwrite(descriptor, buffer, count, off_t(offset))
}

private func posixRead(
  _ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ offset: Int
) -> Int {
  pread(descriptor, buffer, count, off_t(offset))
}

private func posixSync(_ descriptor: Int32) -> Int32 { fsync(descriptor) }

private func posixTruncate(_ descriptor: Int32, _ length: Int) -> Int32 {
  ftruncate(descriptor, off_t(length))
}

private func posixRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }

private func posixClose(_ descriptor: Int32) -> Int32 { close(descriptor) }

private func posixMakeDirectory(_ path: String, _ mode: mode_t) -> Int32 { mkdir(path, mode) }

private func posixUnlink(_ path: String) -> Int32 { unlink(path) }

private func posixSize(_ descriptor: Int32) -> Int {
  var info = stat()
  guard fstat(descriptor, &info) == 0 else { return -1 }
  return Int(info.st_size)
}

private func posixLock(_ descriptor: Int32, _ operation: Int32) -> Int32 {
  flock(descriptor, operation)
}

private func posixPause(_ microseconds: Int) { _ = usleep(useconds_t(clamping: microseconds)) }

/// An open file descriptor with the few POSIX calls the store needs, closed when released.
///
/// The store uses POSIX directly because it needs `flock`, `fsync` and `ftruncate`, which
/// Foundation's `FileHandle` does not all offer, and because it must never lose a todo to a
/// buffered write.
final class OpenFile {
  let descriptor: Int32
  /// The path the file was opened at, for messages.
  let path: String
  /// The calls that reach the file.
  let system: SystemCalls
  private var isOpen = true

  /// How long a lock is waited for silently before the wait is announced.
  static let quietLockWait = 1_000_000

  /// Opens `path` with `flags`; `O_CREAT` creates it with mode 0600, so that only its owner
  /// can read the todos (the umask can only remove bits).
  init(path: String, flags: Int32, system: SystemCalls) throws(StorageError) {
    let descriptor = system.open(path, flags | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw Self.error("open", path) }
    self.descriptor = descriptor
    self.path = path
    self.system = system
  }

  /// Opens the store file at `path` read-only without following a symbolic link, or returns
  /// `nil` if it does not exist.
  ///
  /// An `open` that fails with `ENOENT` while the file is there (a failing disk or file system,
  /// or an injected fault) is an error like any other: reading on as if the file were absent
  /// would show a store that holds todos as an empty one, and a writer would start a new
  /// journal over the old one.
  static func openIfPresent(path: String, system: SystemCalls) throws(StorageError) -> OpenFile? {
    let descriptor = system.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT && SystemCalls.isAbsent(path) { return nil }
      throw error("open", path, code: code)
    }
    return OpenFile(descriptor: descriptor, path: path, system: system)
  }

  private init(descriptor: Int32, path: String, system: SystemCalls) {
    self.descriptor = descriptor
    self.path = path
    self.system = system
  }

  deinit {
    // Only files whose data is already synchronized, or that were only read, reach here open:
    // a failed close then loses nothing.
    if isOpen { _ = system.close(descriptor) }
  }

  /// The `StorageError` for the current `errno`.
  static func error(_ operation: String, _ path: String) -> StorageError {
    error(operation, path, code: errno)
  }

  /// The `StorageError` for `code`.
  static func error(_ operation: String, _ path: String, code: Int32) -> StorageError {
    if code == ELOOP && operation == "open" {
      return .systemCall(
        operation: operation, path: path,
        reason: "it is a symbolic link, and todo-cli follows none inside its store")
    }
    return .systemCall(operation: operation, path: path, reason: errnoText(code))
  }

  /// The text of an `errno` value.
  static func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  /// Takes the advisory lock, waiting for other processes to release theirs.
  ///
  /// Tries without blocking, pausing between tries; after about a second it calls
  /// `announceWait` once and then blocks. Ctrl-C (SIGINT, whose default action ends the
  /// process) still works while waiting, and nothing has been changed then.
  func lock(exclusive: Bool, announceWait: (() -> Void)?) throws(StorageError) {
    let operation = exclusive ? LOCK_EX : LOCK_SH
    var waited = 0
    var interval = 1_000
    while waited < Self.quietLockWait {
      if system.lock(descriptor, operation | LOCK_NB) == 0 { return }
      let code = errno
      if code == EINTR { continue }
      guard code == EWOULDBLOCK else { throw Self.error("lock", path, code: code) }
      system.pause(interval)
      waited += interval
      interval = min(interval * 2, 50_000)
    }
    if system.lock(descriptor, operation | LOCK_NB) == 0 { return }
    announceWait?()
    while system.lock(descriptor, operation) != 0 {
      let code = errno
      guard code == EINTR else { throw Self.error("lock", path, code: code) }
    }
  }

  /// Releases the advisory lock; closing the file releases it too.
  func unlock() {
    _ = system.lock(descriptor, LOCK_UN)
  }

  /// The file's size in bytes.
  func size() throws(StorageError) -> Int {
    let size = system.size(descriptor)
    guard size >= 0 else { throw Self.error("inspect", path) }
    return size
  }

  /// Reads `count` bytes from `offset`, or fewer at the end of the file.
  ///
  /// - Complexity: O(count).
  func read(from offset: Int, count: Int) throws(StorageError) -> [UInt8] {
    guard count > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let result = bytes.withUnsafeMutableBytes { buffer in
        system.read(
          descriptor, buffer.baseAddress.map { $0 + filled }, count - filled, offset + filled)
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw Self.error("read", path)
      }
      if result == 0 { break }
      filled += result
    }
    if filled < count { bytes.removeSubrange(filled...) }
    return bytes
  }

  /// Reads from `offset` to the end of the file.
  ///
  /// - Complexity: O(file size − offset).
  func readToEnd(from offset: Int = 0) throws(StorageError) -> [UInt8] {
    try read(from: offset, count: max(0, try size() - offset))
  }

  /// Writes all of `bytes` at `offset`.
  ///
  /// - Complexity: O(bytes).
  func write(_ bytes: [UInt8], at offset: Int) throws(StorageError) {
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { buffer in
        system.write(
          descriptor, buffer.baseAddress.map { $0 + written }, bytes.count - written,
          offset + written)
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw Self.error("write", path)
      }
      if result == 0 {
        throw .systemCall(operation: "write", path: path, reason: "the disk took no bytes")
      }
      written += result
    }
  }

  /// Forces written data to the disk.
  func synchronize() throws(StorageError) {
    while system.sync(descriptor) != 0 {
      guard errno == EINTR else { throw Self.error("sync", path) }
    }
  }

  /// Cuts the file to `length` bytes.
  func truncate(to length: Int) throws(StorageError) {
    while system.truncate(descriptor, length) != 0 {
      guard errno == EINTR else { throw Self.error("truncate", path) }
    }
  }

  /// Closes the file, reporting a failure (which can be a late write error).
  func close() throws(StorageError) {
    guard isOpen else { return }
    isOpen = false
    // On Linux the descriptor is released even when close fails, so it is never retried.
    guard system.close(descriptor) == 0 else { throw Self.error("close", path) }
  }
}

extension SystemCalls {
  /// Whether something exists at `path`.
  func exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// Whether `path` is known to name nothing: `lstat` finds no entry (a symbolic link is an
  /// entry, whatever it points at).
  ///
  /// Asked of the operating system directly, never through a test's replaced calls: it is how
  /// the store tells a file that is absent from one whose `open` failed with `ENOENT`.
  static func isAbsent(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) != 0 && errno == ENOENT
  }

  /// Creates `path` and its missing parents as directories of mode 0700, synchronizing each
  /// new directory's parent so that the new entry survives a power cut.
  ///
  /// - Complexity: O(path components).
  func createDirectory(_ path: String) throws(StorageError) {
    guard !exists(path) else { return }
    var prefix = path.hasPrefix("/") ? "/" : ""
    var parent = path.hasPrefix("/") ? "/" : "."
    for component in path.split(separator: "/") {
      prefix += component
      if makeDirectory(prefix, 0o700) == 0 {
        try synchronizeDirectory(parent)
      } else if errno != EEXIST {
        throw OpenFile.error("create directory", prefix)
      }
      parent = prefix
      prefix += "/"
    }
  }

  /// Forces `directory`'s entries (new files, renames) to the disk.
  func synchronizeDirectory(_ directory: String) throws(StorageError) {
    let handle = try OpenFile(path: directory, flags: O_RDONLY | O_DIRECTORY, system: self)
    try handle.synchronize()
    try handle.close()
  }

  /// Replaces `path` with `bytes` atomically: readers see the old file or the new one, whole.
  ///
  /// Writes `path.tmp` (removing one a crash left behind, then creating it exclusively and
  /// without following a link, so a planted symbolic link is never written through), syncs it,
  /// renames it over `path`, and syncs the directory so that the rename survives a crash. On
  /// failure the temporary file is removed.
  ///
  /// - Complexity: O(bytes).
  func replaceAtomically(_ path: String, with bytes: [UInt8], directory: String)
    throws(StorageError)
  {
    let temporary = path + ".tmp"
    // unlink removes a symbolic link itself, never its target.
    if unlink(temporary) != 0 && errno != ENOENT {
      throw OpenFile.error("remove", temporary)
    }
    let file = try OpenFile(
      path: temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, system: self)
    do throws(StorageError) {
      try file.write(bytes, at: 0)
      try file.synchronize()
      try file.close()
      guard rename(temporary, path) == 0 else { throw OpenFile.error("rename", temporary) }
    } catch {
      _ = unlink(temporary)
      throw error
    }
    try synchronizeDirectory(directory)
  }
}
