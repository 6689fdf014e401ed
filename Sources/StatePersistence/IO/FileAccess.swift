#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An open file, closed when released, with whole-buffer reads and writes over ``SystemCalls``.
package final class OpenFile {
  package let descriptor: Int32
  /// The path it was opened at, for messages.
  package let path: String
  let system: any SystemCalls
  private var isOpen = true

  /// Opens `path` without following a symbolic link, unless `followingLinks`; `O_CREAT` makes
  /// it with mode 0600, and an existing file keeps its mode.
  package init(
    _ path: String, flags: Int32, system: any SystemCalls, followingLinks: Bool = false
  ) throws(PersistenceError) {
    let noFollow = followingLinks ? 0 : O_NOFOLLOW
    do {
      descriptor = try system.open(path, flags: flags | noFollow | O_CLOEXEC, mode: 0o600)
    } catch {
      throw Self.openError(path, error)
    }
    self.path = path
    self.system = system
  }

  /// Opens `path` read-only, or returns `nil` if nothing is there.
  ///
  /// An `open` that fails with `ENOENT` while the file is there (a failing disk or file system,
  /// or an injected fault) throws like any other failure: read on as if the file were absent,
  /// a snapshot would look empty and a journal that holds entries would look like none.
  /// Whether the path names nothing is asked of the operating system directly (`lstat`, which
  /// sees a symbolic link as an entry), never through `system`, so that a test's calls cannot
  /// fake it.
  package static func openIfPresent(_ path: String, system: any SystemCalls)
    throws(PersistenceError)
    -> OpenFile?
  {
    do {
      return try OpenFile(path, flags: O_RDONLY, system: system)
    } catch .systemCall(let operation, let failedPath, let code) where code == ENOENT {
      var info = stat()
      guard lstat(path, &info) != 0, errno == ENOENT else {
        throw .systemCall(operation: operation, path: failedPath, code: code)
      }
      return nil
    }
  }

  deinit {
    // Files reach here open only after an error, or after reads: a failed close loses nothing.
    if isOpen { try? system.close(descriptor) }
  }

  private static func openError(_ path: String, _ failure: SystemCallFailure) -> PersistenceError {
    .failed("open", path, failure)
  }

  /// The file's size in bytes.
  package func size() throws(PersistenceError) -> Int {
    do { return try system.size(descriptor) } catch { throw .failed("inspect", path, error) }
  }

  /// Reads `count` bytes from `offset`, or fewer at the end of the file.
  ///
  /// - Complexity: O(count).
  package func read(from offset: Int, count: Int) throws(PersistenceError) -> [UInt8] {
    guard count > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: count)
    var filled = 0
    while filled < count {
      let outcome = bytes.withUnsafeMutableBytes { buffer in
        Result { () throws(SystemCallFailure) -> Int in
          try system.read(
            descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]),
            at: offset + filled)
        }
      }
      let result: Int
      switch outcome {
      case .success(let count): result = count
      case .failure(let failure): throw .failed("read", path, failure)
      }
      if result == 0 { break }
      filled += result
    }
    if filled < count { bytes.removeSubrange(filled...) }
    return bytes
  }

  /// The whole file.
  ///
  /// - Complexity: O(file size).
  package func readAll() throws(PersistenceError) -> [UInt8] {
    try read(from: 0, count: try size())
  }

  /// Writes all of `bytes` at `offset`.
  ///
  /// - Complexity: O(bytes).
  package func write(_ bytes: [UInt8], at offset: Int) throws(PersistenceError) {
    var written = 0
    while written < bytes.count {
      let outcome = bytes.withUnsafeBytes { buffer in
        Result { () throws(SystemCallFailure) -> Int in
          try system.write(
            descriptor, UnsafeRawBufferPointer(rebasing: buffer[written...]), at: offset + written)
        }
      }
      let result: Int
      switch outcome {
      case .success(let count): result = count
      case .failure(let failure): throw .failed("write", path, failure)
      }
      guard result > 0 else { throw .failed("write", path, SystemCallFailure(.write, code: EIO)) }
      written += result
    }
  }

  /// Forces the file's data to the disk.
  package func synchronize() throws(PersistenceError) {
    do { try system.synchronize(descriptor) } catch { throw .failed("sync", path, error) }
  }

  /// Cuts the file to `length` bytes.
  package func truncate(to length: Int) throws(PersistenceError) {
    do {
      try system.truncate(descriptor, to: length)
    } catch {
      throw .failed("truncate", path, error)
    }
  }

  /// Takes or releases the advisory lock; `LOCK_NB` makes a held lock fail with `EWOULDBLOCK`.
  package func lock(_ operation: Int32) throws(SystemCallFailure) {
    try system.lock(descriptor, operation: operation)
  }

  /// Closes the file, reporting a failure (which can be a late write error).
  package func close() throws(PersistenceError) {
    guard isOpen else { return }
    isOpen = false
    do { try system.close(descriptor) } catch { throw .failed("close", path, error) }
  }
}

/// The file operations persistence builds from ``SystemCalls``: directories, atomic
/// replacement, listing.
///
/// A directory the app names is opened through a symbolic link, as any path the app gives is
/// (a store kept under a link, or under `/var` on Apple platforms, which links to
/// `/private/var`); a file inside it never is: a link planted in place of a segment, the lock,
/// a snapshot or a temporary file is refused (`ELOOP`) or removed, never written through.
package struct FileAccess: Sendable {
  package let system: any SystemCalls

  /// File access over `system`.
  package init(system: any SystemCalls) {
    self.system = system
  }

  /// The contents of `path`, or `nil` if there is no such file.
  ///
  /// - Complexity: O(file size).
  package func contents(of path: String) throws(PersistenceError) -> [UInt8]? {
    guard let file = try OpenFile.openIfPresent(path, system: system) else { return nil }
    return try file.readAll()
  }

  /// Creates `path` and its missing parents with mode 0700, synchronizing each new directory's
  /// parent so that the new entry survives a power cut; an existing directory keeps its mode.
  ///
  /// - Complexity: O(path components).
  package func createDirectory(_ path: String) throws(PersistenceError) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    var parent = path.hasPrefix("/") ? "/" : "."
    for component in path.split(separator: "/") {
      prefix += component
      var created = true
      do {
        try system.makeDirectory(prefix, mode: 0o700)
      } catch  where error.code == EEXIST {
        // Already there, with whatever mode its owner gave it.
        created = false
      } catch {
        throw .failed("create directory", prefix, error)
      }
      if created { try synchronizeDirectory(parent) }
      parent = prefix
      prefix += "/"
    }
  }

  /// Forces `directory`'s entries (new files, renames, removals) to the disk.
  package func synchronizeDirectory(_ directory: String) throws(PersistenceError) {
    let handle = try OpenFile(
      directory, flags: O_RDONLY | O_DIRECTORY, system: system, followingLinks: true)
    try handle.synchronize()
    try handle.close()
  }

  /// Replaces `path` with `bytes` atomically: a reader, even after a power cut, sees the old
  /// file or the new one, whole.
  ///
  /// Writes `path.tmp` (removing one a crash left behind, then creating it exclusively without
  /// following a link, so a planted link is never written through), synchronizes it, renames it
  /// over `path`, and synchronizes the directory. On failure the temporary file is removed and
  /// `path` is as it was, unless the failure is the directory's synchronization: the rename is
  /// then done but may not survive a power cut.
  ///
  /// - Complexity: O(bytes).
  package func replaceAtomically(_ path: String, with bytes: [UInt8], in directory: String)
    throws(PersistenceError)
  {
    try replaceWithoutSynchronizingDirectory(path, with: bytes)
    try synchronizeDirectory(directory)
  }

  /// Replaces `path` with `bytes` as ``replaceAtomically(_:with:in:)`` does, up to and with the
  /// rename, but does not synchronize the directory: a caller that must know whether the
  /// rename happened (it did when this returns) synchronizes it itself.
  ///
  /// - Complexity: O(bytes).
  package func replaceWithoutSynchronizingDirectory(_ path: String, with bytes: [UInt8])
    throws(PersistenceError)
  {
    let temporary = path + ".tmp"
    try remove(temporary)
    let file = try OpenFile(temporary, flags: O_WRONLY | O_CREAT | O_EXCL, system: system)
    do throws(PersistenceError) {
      try file.write(bytes, at: 0)
      try file.synchronize()
      try file.close()
      do {
        try system.rename(temporary, to: path)
      } catch {
        throw .failed("rename", temporary, error)
      }
    } catch {
      try? system.unlink(temporary)
      throw error
    }
  }

  /// Renames `path` to `newPath`, both in `directory`, and synchronizes the directory, so that
  /// after a power cut the file has one name or the other.
  package func rename(_ path: String, to newPath: String, in directory: String)
    throws(PersistenceError)
  {
    do {
      try system.rename(path, to: newPath)
    } catch {
      throw .failed("rename", path, error)
    }
    try synchronizeDirectory(directory)
  }

  /// Removes the file at `path`; nothing there is not an error.
  ///
  /// A symbolic link is removed
  /// itself, never its target.
  package func remove(_ path: String) throws(PersistenceError) {
    do {
      try system.unlink(path)
    } catch  where error.code == ENOENT {
      return
    } catch {
      throw .failed("remove", path, error)
    }
  }

  /// The names in `directory`.
  ///
  /// - Complexity: O(entries).
  package func names(in directory: String) throws(PersistenceError) -> [String] {
    do {
      return try system.contentsOfDirectory(directory)
    } catch {
      throw .failed("list", directory, error)
    }
  }
}
