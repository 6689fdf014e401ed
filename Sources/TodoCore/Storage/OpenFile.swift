#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An open file descriptor with the few POSIX calls the store needs, closed when released.
///
/// The store uses POSIX directly because it needs `flock`, `fsync` and `ftruncate`, which
/// Foundation's `FileHandle` does not all offer, and because it must never lose a todo to a
/// buffered write.
final class OpenFile: Sendable {
  /// The descriptor; only read after `init`, which makes sharing it between tasks safe.
  let descriptor: Int32
  /// The path the file was opened at, for messages.
  let path: String

  /// Opens `path` with `flags`; `O_CREAT` creates it with mode 0644.
  init(path: String, flags: Int32) throws(StorageError) {
    let descriptor = open(path, flags | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw Self.error("open", path) }
    self.descriptor = descriptor
    self.path = path
  }

  /// Opens `path` read-only, or returns `nil` if it does not exist.
  static func openIfPresent(path: String) throws(StorageError) -> OpenFile? {
    do {
      return try OpenFile(path: path, flags: O_RDONLY)
    } catch {
      if case .systemCall(_, _, let reason) = error, reason == Self.errnoText(ENOENT) {
        return nil
      }
      throw error
    }
  }

  deinit { close(descriptor) }

  /// The `StorageError` for the current `errno`.
  static func error(_ operation: String, _ path: String) -> StorageError {
    .systemCall(operation: operation, path: path, reason: errnoText(errno))
  }

  static func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  /// Takes the advisory lock, waiting for other processes to release theirs.
  func lock(exclusive: Bool) throws(StorageError) {
    while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0 {
      guard errno == EINTR else { throw Self.error("lock", path) }
    }
  }

  /// Releases the advisory lock; closing the file releases it too.
  func unlock() {
    _ = flock(descriptor, LOCK_UN)
  }

  /// The file's size in bytes.
  func size() throws(StorageError) -> Int {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw Self.error("inspect", path) }
    return Int(info.st_size)
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
        pread(
          descriptor, buffer.baseAddress.map { $0 + filled }, count - filled,
          off_t(offset + filled))
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

  /// Writes all of `bytes` at the current position (the end, for files opened with `O_APPEND`).
  ///
  /// - Complexity: O(bytes).
  func write(_ bytes: [UInt8]) throws(StorageError) {
    var written = 0
    while written < bytes.count {
      let result = bytes.withUnsafeBytes { buffer in
        systemWrite(descriptor, buffer.baseAddress.map { $0 + written }, bytes.count - written)
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw Self.error("write", path)
      }
      written += result
    }
  }

  /// Forces written data to the disk.
  func synchronize() throws(StorageError) {
    while fsync(descriptor) != 0 {
      guard errno == EINTR else { throw Self.error("sync", path) }
    }
  }

  /// Cuts the file to `length` bytes.
  func truncate(to length: Int) throws(StorageError) {
    while ftruncate(descriptor, off_t(length)) != 0 {
      guard errno == EINTR else { throw Self.error("truncate", path) }
    }
  }
}

/// The POSIX `write`, which `OpenFile.write(_:)` shadows.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}

/// File-system operations on paths.
enum FileSystem {
  /// Whether something exists at `path`.
  static func exists(_ path: String) -> Bool {
    access(path, F_OK) == 0
  }

  /// Creates `path` and its missing parents as directories.
  static func createDirectory(_ path: String) throws(StorageError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for component in path.split(separator: "/") {
      prefix += component
      if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
        throw OpenFile.error("create directory", prefix)
      }
      prefix += "/"
    }
  }

  /// Forces `directory`'s entries (new files, renames) to the disk.
  static func synchronizeDirectory(_ directory: String) throws(StorageError) {
    let handle = try OpenFile(path: directory, flags: O_RDONLY)
    try handle.synchronize()
  }

  /// Replaces `path` with `bytes` atomically: readers see the old file or the new one, whole.
  ///
  /// Writes a temporary file next to it, syncs it, renames it over `path`, and syncs the
  /// directory so that the rename survives a crash.
  ///
  /// - Complexity: O(bytes).
  static func replaceAtomically(_ path: String, with bytes: [UInt8], directory: String)
    throws(StorageError)
  {
    let temporary = path + ".tmp"
    let file = try OpenFile(path: temporary, flags: O_WRONLY | O_CREAT | O_TRUNC)
    try file.write(bytes)
    try file.synchronize()
    guard rename(temporary, path) == 0 else { throw OpenFile.error("rename", temporary) }
    try synchronizeDirectory(directory)
  }
}
