import Foundation

/// Where each line of a log file ends, found by looking only for newlines, a chunk at a time.
///
/// Nothing is decoded: the index is what the terminal interface builds before it reads any
/// entry, so that a log of a million entries can show its first lines while the rest is still
/// being indexed, and an entry is read from its line when it is shown. Its whole cost is one
/// `memchr` pass over the bytes and one integer per line (I1 in `store-bench`).
package struct LineIndex: Sendable, Equatable {
  /// The offset of each complete line's newline, in order.
  private var newlines: [Int] = []
  /// How many bytes from the start have been looked at.
  package private(set) var indexedBytes = 0

  /// How many bytes the terminal interface indexes between two frames: a few milliseconds'
  /// work, so that keys are still answered while a large log is indexed.
  package static let chunkBytes = 1 << 20

  /// Creates an index that has looked at nothing yet.
  package init() {}

  /// Makes room for `lines` lines, so that indexing that many copies no offset again.
  package mutating func reserveCapacity(lines: Int) {
    newlines.reserveCapacity(lines)
  }

  /// The number of complete lines (ended by a newline) found so far.
  package var lineCount: Int { newlines.count }

  /// The bytes of line `index` (from 0), without its newline; `nil` past the lines found.
  package func range(ofLine index: Int) -> Range<Int>? {
    guard newlines.indices.contains(index) else { return nil }
    let start = index == 0 ? 0 : newlines[index - 1] + 1
    return start..<newlines[index]
  }

  /// Where the bytes after the last complete line start: a line still being written.
  package var unfinishedLineStart: Int { newlines.last.map { $0 + 1 } ?? 0 }

  /// Looks for newlines in the next `maximumBytes` bytes of `bytes` not yet looked at, which
  /// must start with the bytes already indexed (a file read again as it grows does).
  ///
  /// - Returns: How many lines were found.
  /// - Complexity: O(bytes looked at).
  @discardableResult
  package mutating func advance(in bytes: UnsafeRawBufferPointer, by maximumBytes: Int) -> Int {
    let end = min(bytes.count, indexedBytes + max(maximumBytes, 0))
    guard let base = bytes.baseAddress, indexedBytes < end else { return 0 }
    let before = newlines.count
    var position = indexedBytes
    while position < end, let found = memchr(base + position, 0x0A, end - position) {
      let offset = base.distance(to: UnsafeRawPointer(found))
      newlines.append(offset)
      position = offset + 1
    }
    indexedBytes = end
    return newlines.count - before
  }

  /// Looks for newlines in `chunk`: the bytes of the file that follow the ones already
  /// indexed, read a chunk at a time rather than held whole.
  ///
  /// - Complexity: O(`chunk.count`).
  package mutating func append(_ chunk: UnsafeRawBufferPointer) {
    guard let base = chunk.baseAddress else { return }
    var position = 0
    while position < chunk.count, let found = memchr(base + position, 0x0A, chunk.count - position)
    {
      let offset = base.distance(to: UnsafeRawPointer(found))
      newlines.append(indexedBytes + offset)
      position = offset + 1
    }
    indexedBytes += chunk.count
  }

  /// Counts the bytes after the last newline as one more line, ended by the end of the file:
  /// the last line of a log read whole that has no newline.
  package mutating func endLastLine() {
    guard unfinishedLineStart < indexedBytes else { return }
    newlines.append(indexedBytes)
  }

  /// Looks for newlines in the next `maximumBytes` bytes of `data` not yet looked at; see
  /// ``advance(in:by:)``.
  ///
  /// - Complexity: O(bytes looked at).
  @discardableResult
  package mutating func advance(in data: Data, by maximumBytes: Int) -> Int {
    data.withUnsafeBytes { advance(in: $0, by: maximumBytes) }
  }
}
