#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The operating system's calls, retrying those that `EINTR` interrupts.
package struct POSIXCalls: SystemCalls {
  package init() {}

  package func open(_ path: String, flags: Int32, mode: mode_t) throws(SystemCallFailure) -> Int32 {
    try Self.retrying(.open) { openFile(path, flags, mode) }
  }

  package func read(
    _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
  ) throws(SystemCallFailure) -> Int {
    try Self.retrying(.read) { pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset)) }
  }

  package func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int)
    throws(SystemCallFailure) -> Int
  {
    try Self.retrying(.write) { pwrite(descriptor, bytes.baseAddress, bytes.count, off_t(offset)) }
  }

  package func synchronize(_ descriptor: Int32) throws(SystemCallFailure) {
    _ = try Self.retrying(.synchronize) { fsync(descriptor) }
  }

  package func truncate(_ descriptor: Int32, to length: Int) throws(SystemCallFailure) {
    _ = try Self.retrying(.truncate) { ftruncate(descriptor, off_t(length)) }
  }

  package func size(_ descriptor: Int32) throws(SystemCallFailure) -> Int {
    var info = stat()
    _ = try Self.retrying(.size) { fstat(descriptor, &info) }
    return Int(info.st_size)
  }

  package func lock(_ descriptor: Int32, operation: Int32) throws(SystemCallFailure) {
    _ = try Self.retrying(.lock) { flock(descriptor, operation) }
  }

  package func close(_ descriptor: Int32) throws(SystemCallFailure) {
    // Linux releases the descriptor even when close fails, so close is never retried.
    guard closeDescriptor(descriptor) == 0 else { throw SystemCallFailure(.close, code: errno) }
  }

  package func rename(_ from: String, to: String) throws(SystemCallFailure) {
    _ = try Self.retrying(.rename) { renameFile(from, to) }
  }

  package func unlink(_ path: String) throws(SystemCallFailure) {
    _ = try Self.retrying(.unlink) { unlinkFile(path) }
  }

  package func makeDirectory(_ path: String, mode: mode_t) throws(SystemCallFailure) {
    _ = try Self.retrying(.makeDirectory) { mkdir(path, mode) }
  }

  package func contentsOfDirectory(_ path: String) throws(SystemCallFailure) -> [String] {
    guard let directory = opendir(path) else {
      throw SystemCallFailure(.contentsOfDirectory, code: errno)
    }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// Runs `call` until it is not interrupted; throws its `errno` if it returns a negative value.
  private static func retrying<Result: BinaryInteger>(
    _ kind: SystemCallKind, _ call: () -> Result
  ) throws(SystemCallFailure) -> Result {
    while true {
      let result = call()
      if result >= 0 { return result }
      let code = errno
      if code != EINTR { throw SystemCallFailure(kind, code: code) }
    }
  }
}

// The C functions under names that do not clash with the methods above.

private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
  open(path, flags, mode)
}

private func closeDescriptor(_ descriptor: Int32) -> Int32 { close(descriptor) }

private func renameFile(_ from: String, _ to: String) -> Int32 { rename(from, to) }

private func unlinkFile(_ path: String) -> Int32 { unlink(path) }
