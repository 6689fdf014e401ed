import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A log file open for appending, shared with every other recorder of the file, in this
/// process or another.
///
/// Writers take the file's exclusive `flock` around each append and write through an
/// `O_APPEND` descriptor, so lines never overwrite each other. Under the lock a writer first
/// looks at what others appended since its own last write (``lock()``), and numbers its
/// entries after theirs. The header is written under the lock by whoever finds the file empty,
/// and a torn tail is cut only under the lock, so no writer cuts a line another is writing.
final class LogFile {
  /// The file's path, for error messages.
  let path: String
  private let descriptor: Int32
  /// The file, for the writers of this process that may hold its lock (``LogFileHolders``).
  let key: LogFileHolders.Key?
  /// The file's size when this writer last released the lock: where others' lines would start.
  private var end = 0
  private(set) var isLocked = false
  private var isOpen = true

  /// What opening found, with the lock held.
  struct Opened {
    let file: LogFile
    /// The last `seq` (or checkpoint number) in the file, 0 if none.
    let lastSequence: Int
    /// Whether the file is new or empty and still needs its header.
    let needsHeader: Bool
    /// The format version its header names; `nil` when it needs a header.
    var version: Int?
    /// The largest effect number in the file, 0 if none: a recorder numbers its effects after it.
    var lastEffect = 0
  }

  private init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = descriptor
    self.key = LogFileHolders.Key(descriptor: descriptor)
  }

  deinit { close() }

  /// Closes the file, which releases the lock.
  func close() {
    guard isOpen else { return }
    isOpen = false
    isLocked = false
    closeDescriptor(descriptor)
  }

  /// Opens `url` to append entries recorded from a `stateType` store, creating it if needed,
  /// and returns it locked: the caller writes the header, if needed, and unlocks.
  ///
  /// The torn tail a crash leaves (see ``JSONLines``) is cut off: it holds no complete entry,
  /// and leaving it would put a malformed line in the middle of the log. A complete last line
  /// that only lacks its newline (a hand-edited file) gets one.
  ///
  /// - Complexity: O(size of the file), read once.
  @MainActor
  static func openForAppending(_ url: URL, stateType: Any.Type) throws(ActionLogError) -> Opened {
    let path = url.path
    let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw failure(path, "cannot open it", errno) }
    let file = LogFile(path: path, descriptor: descriptor)
    if let key = file.key { LogFileHolders.makeWay(for: key) }
    try file.takeLock()
    let bytes = try file.read(from: 0)
    guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
      try file.truncate(at: 0)
      return Opened(file: file, lastSequence: 0, needsHeader: true)
    }
    let tail = try examine(bytes, header: stateType)
    try file.repair(tail, at: 0)
    let needsHeader = tail.truncateAt == 0
    return Opened(
      file: file, lastSequence: tail.lastSequence ?? 0, needsHeader: needsHeader,
      version: needsHeader ? nil : tail.version, lastEffect: tail.lastEffect)
  }

  /// What other writers appended since this one last held the lock.
  struct Appended {
    /// The last `seq` (or checkpoint number) they wrote, `nil` if they wrote none.
    var lastSequence: Int?
    /// The largest effect number of their effect lines, 0 if none.
    var lastEffect: Int
  }

  /// Takes the lock, if this writer does not hold it, and returns what other writers appended
  /// since this one last held it, or `nil` when none did.
  ///
  /// A torn tail another writer left is cut off first.
  ///
  /// - Complexity: O(1) system calls when nobody else wrote; otherwise O(size of what they
  ///   wrote).
  func lock() throws(ActionLogError) -> Appended? {
    guard !isLocked else { return nil }
    try takeLock()
    do {
      let size = try self.size()
      guard size != end else { return nil }
      // Others only append whole lines after this writer's last one; a shorter file is one
      // that someone else rewrote, and is read again from its start.
      let start = size > end ? end : 0
      let bytes = try read(from: start)
      let tail = try Self.examine(bytes, header: nil)
      try repair(tail, at: start)
      return Appended(lastSequence: tail.lastSequence, lastEffect: tail.lastEffect)
    } catch {
      unlock()
      throw error
    }
  }

  /// Writes `data`, whole lines, at the end of the file; the lock must be held.
  ///
  /// - Complexity: O(size of `data`).
  func append(_ data: Data) throws(ActionLogError) {
    let failed: Int32? = data.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return nil }
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return nil
    }
    if let failed { throw Self.failure(path, "write failed", failed) }
  }

  /// Releases the lock, remembering the file's size as the end of this writer's lines.
  func unlock() {
    guard isLocked else { return }
    if let size = try? size() { end = size }
    _ = flock(descriptor, LOCK_UN)
    isLocked = false
  }

  /// Waits until what was written is on disk (`fsync`).
  func synchronize() throws(ActionLogError) {
    while fsync(descriptor) != 0 {
      guard errno == EINTR else { throw Self.failure(path, "fsync failed", errno) }
    }
  }

  private func takeLock() throws(ActionLogError) {
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else { throw Self.failure(path, "cannot lock it", errno) }
    }
    isLocked = true
  }

  private func size() throws(ActionLogError) -> Int {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw Self.failure(path, "fstat failed", errno) }
    return Int(info.st_size)
  }

  /// The bytes of the file from `start` to its end.
  private func read(from start: Int) throws(ActionLogError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    var offset = start
    while true {
      let count = chunk.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, $0.count, off_t(offset))
      }
      if count < 0 {
        if errno == EINTR { continue }
        throw Self.failure(path, "read failed", errno)
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[..<count])
      offset += count
    }
  }

  private func truncate(at length: Int) throws(ActionLogError) {
    while ftruncate(descriptor, off_t(length)) != 0 {
      guard errno == EINTR else { throw Self.failure(path, "cannot cut its torn tail", errno) }
    }
  }

  /// Cuts the torn tail `tail` found in the bytes read from `start`, or ends its last line.
  private func repair(_ tail: Tail, at start: Int) throws(ActionLogError) {
    if let cut = tail.truncateAt { try truncate(at: start + cut) }
    if tail.needsNewline { try append(Data("\n".utf8)) }
  }

  private static func failure(_ path: String, _ what: String, _ code: Int32) -> ActionLogError {
    .fileError(path: path, reason: "\(what): \(String(cString: strerror(code)))")
  }

  private struct Tail {
    var lastSequence: Int?
    var truncateAt: Int?
    /// The format version the header names.
    var version: Int?
    var needsNewline = false
    /// The largest effect number of the effect lines read.
    var lastEffect = 0
  }

  /// Examines `bytes`: the whole file, whose header is checked against `stateType`, or, with
  /// no `stateType`, lines other writers appended after this writer's last one.
  ///
  /// A torn tail is cut (a writer that crashed in the middle of a write), except a complete
  /// line that lacks only its newline, and a whole file's lone first line cut short, which the
  /// header check refuses rather than erasing a file that may not be a log at all.
  ///
  /// - Complexity: O(size of `bytes`).
  private static func examine(
    _ bytes: [UInt8], header stateType: Any.Type?
  ) throws(ActionLogError) -> Tail {
    var (lines, tornStart) = JSONLines.readable(bytes)
    var tail = Tail()
    if let tornStart {
      let torn = bytes[tornStart...]
      if !torn.contains(0x0A), JSONLines.isJSON(torn) {
        tail.needsNewline = true
        lines.append(tornStart..<bytes.count)
      } else if stateType == nil || tornStart > 0
        || torn.allSatisfy({ $0 == 0 || $0 == 0x0A })
      {
        tail.truncateAt = tornStart
      } else {
        // Only a power cut's NUL bytes are erased whole.
        lines.append(tornStart..<bytes.count)
      }
    }
    var body = lines[...]
    if let stateType {
      guard let first = lines.first else { return tail }
      let header = try ActionLogHeader.validated(Data(bytes[first]), line: 1)
      tail.version = header.version
      let storeState = String(describing: stateType)
      if let logged = header.state, logged != storeState {
        throw .stateTypeMismatch(logged: logged, store: storeState)
      }
      body = lines.dropFirst()
    }
    tail.lastSequence = try lastSequence(bytes, body, firstLine: lines.count - body.count + 1)
    tail.lastEffect = lastEffect(bytes, body)
    return tail
  }

  /// The largest number of the effect lines among `lines`, as a recorder writes them
  /// (`{"effect":N,`), 0 if none.
  ///
  /// - Complexity: O(lines), reading the first bytes of each.
  private static func lastEffect(_ bytes: [UInt8], _ lines: ArraySlice<Range<Int>>) -> Int {
    let prefix = Array(#"{"effect":"#.utf8)
    var largest = 0
    for line in lines where bytes[line].starts(with: prefix) {
      var number = 0
      for byte in bytes[(line.lowerBound + prefix.count)..<line.upperBound] {
        guard byte >= 0x30, byte <= 0x39, number < Int.max / 10 - 9 else { break }
        number = number * 10 + Int(byte - 0x30)
      }
      largest = max(largest, number)
    }
    return largest
  }

  /// The `seq` or checkpoint number of the last line of `lines` that has one.
  private static func lastSequence(
    _ bytes: [UInt8], _ lines: ArraySlice<Range<Int>>, firstLine: Int
  ) throws(ActionLogError) -> Int? {
    for (offset, line) in lines.enumerated().reversed() {
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(bytes[line])) as? [String: Any],
        let sequence = (object["seq"] ?? object["checkpoint"]) as? Int
      else { continue }
      guard LogSequence.checkpoints.contains(sequence) else {
        throw .malformedLine(
          line: offset + firstLine,
          reason: "seq \(sequence) is outside \(LogSequence.describe(LogSequence.entries)), "
            + "so no entry can follow it")
      }
      return sequence
    }
    return nil
  }
}

private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
