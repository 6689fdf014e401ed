import ActionLog
import Foundation

/// A log file read as it grows: each call reads what was appended since the last one.
///
/// Only complete lines are read: a line still being written waits for its newline. Serves
/// `--follow` and the terminal interface's live timeline.
package final class LogTail {
  /// Why reading stopped.
  package enum Failure: Error, Equatable {
    /// The file cannot be opened or read; the message names it.
    case unreadable(String)
    /// The log is damaged at a line.
    case damaged(LogDamage)
  }

  private let path: String
  private let handle: FileHandle
  private var scanner = LogScanner()
  private var tracker = StateTracker()
  private var pending: [UInt8] = []
  private var offset: UInt64 = 0

  /// Opens the log at `path`, to be read from its start.
  ///
  /// - Throws: ``Failure/unreadable(_:)`` when it cannot be opened.
  package init(path: String) throws(Failure) {
    self.path = path
    do {
      handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    } catch {
      throw .unreadable("cannot read \(path): \(error.localizedDescription)")
    }
  }

  deinit { try? handle.close() }

  /// How many bytes of the file have been read.
  package var bytesRead: Int { Int(offset) }

  /// The size of the file now.
  ///
  /// - Throws: ``Failure/unreadable(_:)`` when it cannot be found.
  package func size() throws(Failure) -> Int {
    do {
      return Int(try handle.seekToEnd())
    } catch {
      throw .unreadable("cannot read \(path): \(error.localizedDescription)")
    }
  }

  /// Reads the complete lines among the next `maximumBytes` bytes appended since the last call
  /// (all of them by default) and hands each record to `visit`, with the encoded state after
  /// it and where its line is in the file (newline excluded).
  ///
  /// - Returns: How many bytes were read: fewer than `maximumBytes` at the end of the file.
  /// - Throws: ``Failure`` when the file cannot be read or the new lines are damaged; the
  ///   records before the damage have been visited.
  /// - Complexity: O(bytes read).
  @discardableResult
  package func readNew(
    upTo maximumBytes: Int = .max,
    _ visit: (LogRecord, _ state: JSONValue?, _ bytes: Range<Int>) -> Void
  ) throws(Failure) -> Int {
    let chunk: Data
    do {
      try handle.seek(toOffset: offset)
      chunk =
        try maximumBytes == .max
        ? handle.readToEnd() ?? Data() : handle.read(upToCount: max(maximumBytes, 1)) ?? Data()
    } catch {
      throw .unreadable("cannot read \(path): \(error.localizedDescription)")
    }
    offset += UInt64(chunk.count)
    pending.append(contentsOf: chunk)
    let (lines, tornStart) = JSONLines.split(pending)
    let base = bytesRead - pending.count
    do throws(LogDamage) {
      for line in lines {
        if let record = try scanner.read(pending, line) {
          try tracker.apply(record)
          visit(record, tracker.state, (base + line.lowerBound)..<(base + line.upperBound))
        }
      }
    } catch {
      throw .damaged(error)
    }
    pending.removeFirst(tornStart ?? pending.count)
    guard pending.count <= LogScanner.maximumLineLength else {
      throw .damaged(
        LogDamage(
          line: scanner.nextLineNumber,
          reason: "longer than \(LogScanner.maximumLineLength) bytes"))
    }
    return chunk.count
  }

  /// Reads the bytes after the last newline as the last line of a file read whole, by
  /// ``LogFileReader/readLastLine(_:_:with:)``'s rule, once the end of the file is reached.
  ///
  /// - Throws: ``Failure/damaged(_:)`` when they are not a complete line.
  /// - Complexity: O(length of the line).
  package func readLastLine(
    _ visit: (LogRecord, _ state: JSONValue?, _ bytes: Range<Int>) -> Void
  ) throws(Failure) {
    guard !pending.isEmpty else { return }
    do throws(LogDamage) {
      if let record = try LogFileReader.readLastLine(
        pending, pending.indices, with: &scanner)
      {
        try tracker.apply(record)
        visit(record, tracker.state, (bytesRead - pending.count)..<bytesRead)
      }
    } catch {
      throw .damaged(error)
    }
    pending = []
  }
}
