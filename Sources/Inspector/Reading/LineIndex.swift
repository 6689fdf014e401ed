import Foundation

/// Where each line of a log file ends, found by looking only for newlines, a chunk at a time.
///
/// Nothing is decoded: the index is what the terminal interface builds before it reads any
/// entry, so that a log of a million entries can show its first lines while the rest is still
/// being indexed, and an entry is read from its line when it is shown. Its whole cost is one
/// `memchr` pass over the bytes and 4 bytes per line (I1 in `store-bench`), written through a
/// small buffer on the stack so that the pass checks no array's uniqueness or capacity per
/// line.
///
/// Each newline's offset is kept as its low 32 bits; the lines where the offsets pass each
/// multiple of 4 GiB are kept apart, so a file of any size is indexed at half the memory (and
/// half the fresh pages) of whole offsets.
package struct LineIndex: Sendable, Equatable {
  /// The low 32 bits of the offset of each complete line's newline, in order.
  private var newlines: [UInt32] = []
  /// For each multiple of 4 GiB the newlines' offsets have passed, the first line whose
  /// newline lies past it: empty for a file under 4 GiB.
  private var firstLinesPastEach4GiB: [Int] = []
  /// How many bytes from the start have been looked at.
  package private(set) var indexedBytes = 0

  /// How many bytes the terminal interface indexes between two frames: a few milliseconds'
  /// work, so that keys are still answered while a large log is indexed.
  package static let chunkBytes = 1 << 20

  /// How many newlines' offsets are gathered on the stack before they join the index.
  private static let batchSize = 2048

  /// Creates an index that has looked at nothing yet.
  package init() {}

  /// Creates an index that takes its first `skippedBytes` bytes as looked at, with no newline
  /// in them: for tests of offsets past 4 GiB without a file that large.
  init(skippingBytes skippedBytes: Int) {
    indexedBytes = max(0, skippedBytes)
    recordPassing(skippedBytes, onLine: 0)
  }

  /// Makes room for `lines` lines, so that indexing that many copies no offset again.
  package mutating func reserveCapacity(lines: Int) {
    newlines.reserveCapacity(lines)
  }

  /// The number of complete lines (ended by a newline) found so far.
  package var lineCount: Int { newlines.count }

  /// The bytes of line `index` (from 0), without its newline; `nil` past the lines found.
  ///
  /// - Complexity: O(1) for a file under 4 GiB, O(log(size ÷ 4 GiB)) past it.
  package func range(ofLine index: Int) -> Range<Int>? {
    guard newlines.indices.contains(index) else { return nil }
    let start = index == 0 ? 0 : newline(ofLine: index - 1) + 1
    return start..<newline(ofLine: index)
  }

  /// Where the bytes after the last complete line start: a line still being written.
  package var unfinishedLineStart: Int {
    newlines.isEmpty ? 0 : newline(ofLine: newlines.count - 1) + 1
  }

  /// The offset of line `index`'s newline, which has been found.
  private func newline(ofLine index: Int) -> Int {
    let low = Int(newlines[index])
    guard !firstLinesPastEach4GiB.isEmpty else { return low }
    let high = firstLinesPastEach4GiB.partitioningIndex { $0 > index }
    return high << 32 | low
  }

  /// Notes that line `line`'s newline is at `offset`, when it lies past a multiple of 4 GiB
  /// that the lines before did not reach.
  @inline(__always)
  private mutating func recordPassing(_ offset: Int, onLine line: Int) {
    while offset >> 32 > firstLinesPastEach4GiB.count { firstLinesPastEach4GiB.append(line) }
  }

  /// Looks for newlines in the next `maximumBytes` bytes of `bytes` not yet looked at, which
  /// must start with the bytes already indexed (a file read again as it grows does).
  ///
  /// - Returns: How many lines were found.
  /// - Complexity: O(bytes looked at).
  @discardableResult
  package mutating func advance(in bytes: UnsafeRawBufferPointer, by maximumBytes: Int) -> Int {
    let end = min(bytes.count, indexedBytes + max(maximumBytes, 0))
    guard indexedBytes < end else { return 0 }
    let before = newlines.count
    append(UnsafeRawBufferPointer(rebasing: bytes[indexedBytes..<end]))
    return newlines.count - before
  }

  /// Looks for newlines in `chunk`: the bytes of the file that follow the ones already
  /// indexed, read a chunk at a time rather than held whole.
  ///
  /// - Complexity: O(`chunk.count`).
  package mutating func append(_ chunk: UnsafeRawBufferPointer) {
    // Every line begins with the empty prefix: only the few lines not seen whole are listed.
    var unused: [Int] = []
    append(chunk, listingLinesNotBeginningWith: LinePrefix([]), orLongerThan: .max, in: &unused)
  }

  /// Looks for newlines in `chunk`, as ``append(_:)`` does, and lists the lines that are not
  /// of the kind `prefix` begins.
  ///
  /// Each line ended in `chunk` that does not begin with `prefix` or is longer than
  /// `maximumLength` is added to `listed`, in order: every line when `prefix` is `nil`. A line
  /// that began before `chunk`, or whose first bytes cannot be read from `chunk` in one load,
  /// is listed too, for its reader to look at.
  ///
  /// The lines are told apart in the same pass that finds them, while their first bytes are
  /// still in the cache.
  ///
  /// - Complexity: O(`chunk.count`).
  package mutating func append(
    _ chunk: UnsafeRawBufferPointer, listingLinesNotBeginningWith prefix: LinePrefix?,
    orLongerThan maximumLength: Int, in listed: inout [Int]
  ) {
    guard let base = chunk.baseAddress, !chunk.isEmpty else { return }
    let chunkStart = indexedBytes
    let count = chunk.count
    // Where the next line starts, from the chunk's start: before it when the line began in an
    // earlier chunk.
    var lineStart = unfinishedLineStart - chunkStart
    var line = newlines.count
    var position = 0
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Self.batchSize) { batch in
      var gathered = 0
      while position < count, let found = memchr(base + position, 0x0A, count - position) {
        let offset = base.distance(to: UnsafeRawPointer(found))
        if gathered == batch.count {
          newlines.append(contentsOf: batch)
          gathered = 0
        }
        recordPassing(chunkStart + offset, onLine: line)
        batch[gathered] = UInt32(truncatingIfNeeded: chunkStart + offset)
        gathered += 1
        let length = offset - lineStart
        let matches =
          prefix.map { prefix in
            lineStart >= 0 && lineStart <= count - 8 && length >= prefix.count
              && length <= maximumLength && prefix.begins(base + lineStart)
          } ?? false
        if !matches { listed.append(line) }
        line += 1
        lineStart = offset + 1
        position = offset + 1
      }
      newlines.append(contentsOf: UnsafeBufferPointer(rebasing: batch[0..<gathered]))
    }
    indexedBytes += count
  }

  /// Counts the bytes after the last newline as one more line, ended by the end of the file:
  /// the last line of a log read whole that has no newline.
  package mutating func endLastLine() {
    guard unfinishedLineStart < indexedBytes else { return }
    recordPassing(indexedBytes, onLine: newlines.count)
    newlines.append(UInt32(truncatingIfNeeded: indexedBytes))
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

/// The first bytes a kind of line begins with, up to 8, read as one little-endian word so that
/// a line is told apart by one load and one comparison.
package struct LinePrefix: Sendable, Equatable {
  /// The prefix's bytes as a little-endian integer.
  private let word: UInt64
  /// The bits of `word` that the prefix's bytes fill.
  private let mask: UInt64
  /// How many bytes the prefix has: at most 8.
  package let count: Int

  /// The prefix of `bytes`' first 8 bytes (all of them when there are fewer).
  package init(_ bytes: some Sequence<UInt8>) {
    let kept = Array(bytes.prefix(8))
    word = kept.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    mask = kept.isEmpty ? 0 : UInt64.max >> (64 - 8 * UInt64(kept.count))
    count = kept.count
  }

  /// Whether the 8 bytes at `start` begin with the prefix.
  @inline(__always)
  func begins(_ start: UnsafeRawPointer) -> Bool {
    UInt64(littleEndian: start.loadUnaligned(as: UInt64.self)) & mask == word
  }

  /// Whether `bytes` begins with the prefix.
  ///
  /// - Complexity: O(``count``).
  package func begins(_ bytes: some Collection<UInt8>) -> Bool {
    bytes.count >= count
      && zip(bytes, 0..<count).allSatisfy { byte, index in
        UInt8(truncatingIfNeeded: word >> (8 * UInt64(index))) == byte
      }
  }
}
