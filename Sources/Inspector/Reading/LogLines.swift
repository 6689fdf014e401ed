import Foundation

/// A log's bytes read by where they are: a file, read with `pread` so that it may grow while it
/// is read, or bytes in memory.
///
/// The terminal interface indexes a log's lines through it a chunk at a time, and reads each
/// entry's line again through it when the entry is shown.
package final class LogLines: Sendable {
  private enum Source: Sendable {
    case file(descriptor: Int32, path: String)
    case memory(Data)
  }

  private let source: Source

  /// Opens the file at `path` for reading.
  ///
  /// - Throws: ``LogTail/Failure/unreadable(_:)`` naming it when it cannot be opened.
  package init(path: String) throws(LogTail.Failure) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .unreadable("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    source = .file(descriptor: descriptor, path: path)
  }

  /// Reads `data` as a log.
  package init(data: Data) {
    source = .memory(data)
  }

  deinit {
    if case .file(let descriptor, _) = source { close(descriptor) }
  }

  /// The size of the log now.
  ///
  /// - Throws: ``LogTail/Failure/unreadable(_:)`` when the file cannot be examined.
  package func size() throws(LogTail.Failure) -> Int {
    switch source {
    case .memory(let data): return data.count
    case .file(let descriptor, let path):
      var status = stat()
      guard fstat(descriptor, &status) == 0 else {
        throw .unreadable("cannot read \(path): \(String(cString: strerror(errno)))")
      }
      return Int(status.st_size)
    }
  }

  /// Reads up to `count` bytes from `offset` into the start of `buffer`, which grows to hold
  /// them.
  ///
  /// - Returns: How many bytes were read: fewer than `count` only at the end of the log.
  /// - Throws: ``LogDamage`` on line 0, naming the file, when it cannot be read.
  /// - Complexity: O(`count`).
  package func read(at offset: Int, count: Int, into buffer: inout [UInt8]) throws(LogDamage)
    -> Int
  {
    if buffer.count < count { buffer = [UInt8](repeating: 0, count: count) }
    switch source {
    case .memory(let data):
      let available = max(0, min(count, data.count - offset))
      guard available > 0 else { return 0 }
      let start = data.startIndex + offset
      buffer.withUnsafeMutableBufferPointer { bytes in
        data.copyBytes(
          to: UnsafeMutableBufferPointer(rebasing: bytes[0..<available]),
          from: start..<(start + available))
      }
      return available
    case .file(let descriptor, let path):
      var filled = 0
      while filled < count {
        let read = buffer.withUnsafeMutableBytes { raw -> Int in
          guard let base = raw.baseAddress else { return 0 }
          return pread(descriptor, base + filled, count - filled, off_t(offset + filled))
        }
        if read < 0, errno == EINTR { continue }
        guard read >= 0 else {
          throw LogDamage(
            line: 0, reason: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        guard read > 0 else { break }
        filled += read
      }
      return filled
    }
  }

  /// The bytes at `range`; fewer when the log ends before it.
  ///
  /// - Throws: ``LogDamage`` on line 0 when the file cannot be read.
  /// - Complexity: O(`range.count`).
  package func bytes(at range: Range<Int>) throws(LogDamage) -> [UInt8] {
    var buffer: [UInt8] = []
    let read = try read(at: range.lowerBound, count: range.count, into: &buffer)
    if buffer.count > read { buffer.removeSubrange(read...) }
    return buffer
  }
}

/// How much of a log the terminal interface has indexed: it reads a large log a chunk between
/// two frames at a time, so its first screen shows before the log is indexed whole.
package struct ReadingProgress: Equatable, Sendable {
  /// The bytes read so far.
  package var bytesRead: Int
  /// The size of the file when it was opened.
  package var fileSize: Int

  /// Creates the progress of `bytesRead` bytes out of `fileSize`.
  package init(bytesRead: Int, fileSize: Int) {
    self.bytesRead = bytesRead
    self.fileSize = fileSize
  }

  /// The whole per cent read, from 0 to 100.
  package var percent: Int {
    guard fileSize > 0 else { return 100 }
    return Int(min(100, (Double(bytesRead) * 100 / Double(fileSize)).rounded(.down)))
  }
}
