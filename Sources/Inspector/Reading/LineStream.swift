import Foundation

/// Where a log comes from: bytes in memory, a log file, or the directory of a
/// `StatePersistence` journal.
package enum LogInput: Sendable {
  /// A whole log in memory.
  case bytes(Data)
  /// A log file, read a block at a time.
  case file(String)
  /// A `JournaledStore`'s directory: its snapshot, then its journal's entries.
  case journal(String)
  /// A file `StatePersistence` saved whole (a `SnapshotFile`'s): one value, read as a log of
  /// one checkpoint.
  case snapshot(String)

  /// The input at `path`: a journal when it is a directory, a snapshot when the file starts
  /// with a snapshot's header, a log file otherwise.
  package init(path: String) {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    if exists && isDirectory.boolValue {
      self = .journal(path)
    } else if exists && SnapshotReader.isSnapshot(path: path) {
      self = .snapshot(path)
    } else {
      self = .file(path)
    }
  }

  /// Checks that the input can be opened, before anything is printed.
  ///
  /// - Throws: ``InspectorError`` naming the path and why.
  package func checkReadable() throws(InspectorError) {
    switch self {
    case .bytes: return
    case .file(let path), .snapshot(let path):
      _ = try LineStream(path: path, maximumLineLength: 0)
    case .journal(let path):
      do {
        _ = try FileManager.default.contentsOfDirectory(atPath: path)
      } catch {
        throw InspectorError("cannot read \(path): \(error.localizedDescription)")
      }
    }
  }
}

/// The lines of a log, read a block at a time: memory holds one block and the line being read,
/// never the whole file.
struct LineStream {
  /// What ``next()`` found.
  enum Line {
    /// A line ended by a newline: its bytes in ``buffer``, newline excluded.
    case complete(Range<Int>)
    /// The bytes after the last newline, at the end of the input.
    case tail(Range<Int>)
    /// A line longer than the longest a reader takes; the stream stops there.
    case overlong
  }

  private enum Source {
    case memory(Data, offset: Int)
    case file(FileHandle, path: String)
  }

  /// How many bytes each read asks for.
  static let blockSize = 1 << 20

  /// The bytes read and not yet consumed; ranges that ``next()`` returns point into it, until
  /// the next call.
  private(set) var buffer: [UInt8] = []
  private var source: Source
  private let maximumLineLength: Int
  /// Where the next line starts in ``buffer``.
  private var lineStart = 0
  /// How far ``buffer`` has been searched for the next newline.
  private var searched = 0
  private var atEnd = false
  /// Whether any byte was read.
  private(set) var isEmpty = true

  /// A stream over `data`.
  init(_ data: Data, maximumLineLength: Int) {
    source = .memory(data, offset: 0)
    self.maximumLineLength = maximumLineLength
  }

  /// A stream over the file at `path`.
  ///
  /// - Throws: ``InspectorError`` naming the file when it cannot be opened.
  init(path: String, maximumLineLength: Int) throws(InspectorError) {
    do {
      source = .file(try FileHandle(forReadingFrom: URL(fileURLWithPath: path)), path: path)
    } catch {
      throw InspectorError("cannot read \(path): \(error.localizedDescription)")
    }
    self.maximumLineLength = maximumLineLength
  }

  /// The next line, or `nil` after the last.
  ///
  /// - Throws: ``InspectorError`` when the file cannot be read further.
  /// - Complexity: O(length of the line), amortized.
  mutating func next() throws(InspectorError) -> Line? {
    while true {
      let newline = buffer.withUnsafeBufferPointer { bytes in
        bytes[searched...].firstIndex(of: 0x0A)
      }
      if let newline {
        let line = lineStart..<newline
        lineStart = newline + 1
        searched = lineStart
        return .complete(line)
      }
      searched = buffer.count
      guard buffer.count - lineStart <= maximumLineLength else { return .overlong }
      if atEnd {
        guard lineStart < buffer.count else { return nil }
        let tail = lineStart..<buffer.count
        lineStart = buffer.count
        searched = lineStart
        return .tail(tail)
      }
      // Keep only the line being read, then append the next block.
      buffer.removeSubrange(0..<lineStart)
      searched -= lineStart
      lineStart = 0
      guard let block = try readBlock(), !block.isEmpty else {
        atEnd = true
        continue
      }
      isEmpty = false
      buffer.append(contentsOf: block)
    }
  }

  private mutating func readBlock() throws(InspectorError) -> Data? {
    switch source {
    case .memory(let data, let offset):
      guard offset < data.count else { return nil }
      let end = min(offset + Self.blockSize, data.count)
      source = .memory(data, offset: end)
      return data[(data.startIndex + offset)..<(data.startIndex + end)]
    case .file(let handle, let path):
      do {
        return try handle.read(upToCount: Self.blockSize)
      } catch {
        throw InspectorError("cannot read \(path): \(error.localizedDescription)")
      }
    }
  }
}
