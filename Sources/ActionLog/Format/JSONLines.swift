import Foundation

/// The byte-level rules of JSON Lines that every action-log reader follows: the library's
/// replayer and recorder, and the todo app's journal.
///
/// Writers end every line with a newline and hand each write whole lines, so a crash can only
/// leave the end of a file incomplete. That end is the *torn tail*: readers ignore it, and the
/// next writer cuts it off. The torn tail is
///
/// - what follows the last newline, and
/// - a last complete line that holds only NUL bytes, when only NUL bytes follow it: a power cut
///   can leave the blocks a file grew by as zeros, newline included or not.
///
/// A NUL line with anything else after it is damage, for the line's decoder to report.
///
/// Lines are found by scanning bytes, never by splitting strings: a store reads up to a hundred
/// thousand lines per command.
package enum JSONLines {
  /// Splits `bytes[start...]` at its newlines.
  ///
  /// - Returns: The complete lines, newlines excluded, and where the bytes after the last
  ///   newline start, or `nil` when there are none.
  /// - Complexity: O(bytes).
  package static func split(_ bytes: [UInt8], from start: Int = 0) -> (
    lines: [Range<Int>], tornStart: Int?
  ) {
    var lines: [Range<Int>] = []
    var lineStart = max(0, start)
    var index = lineStart
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      // `memchr` finds each newline a vector at a time: a snapshot's value line is one line of
      // most of the file.
      while index < buffer.count,
        let newline = memchr(base + index, 0x0A, buffer.count - index)
      {
        index = base.distance(to: UnsafeRawPointer(newline))
        lines.append(lineStart..<index)
        index += 1
        lineStart = index
      }
    }
    return (lines, lineStart < bytes.count ? lineStart : nil)
  }

  /// Splits `bytes[start...]` into the lines a reader reads and the torn tail it ignores, by the
  /// rule above.
  ///
  /// - Returns: The complete lines, newlines excluded, and where the torn tail starts, or `nil`
  ///   when there is none.
  /// - Complexity: O(bytes).
  package static func readable(_ bytes: [UInt8], from start: Int = 0) -> (
    lines: ArraySlice<Range<Int>>, tornStart: Int?
  ) {
    let (lines, tornStart) = split(bytes, from: start)
    var complete = lines[...]
    if let last = complete.last, isNULLine(bytes[last]),
      bytes[(tornStart ?? bytes.count)...].allSatisfy({ $0 == 0 })
    {
      complete.removeLast()
      return (complete, last.lowerBound)
    }
    return (complete, tornStart)
  }

  /// Whether `line` (newline excluded) holds NUL bytes only, as a power cut leaves a line: the
  /// first condition of a NUL torn tail; the second is that only NUL bytes follow.
  ///
  /// - Complexity: O(line).
  package static func isNULLine(_ line: some Collection<UInt8>) -> Bool {
    !line.isEmpty && line.allSatisfy { $0 == 0 }
  }
}

extension JSONLines {
  /// Whether `line` parses as JSON: a log's last line without its newline is complete if so.
  ///
  /// - Complexity: O(line).
  static func isJSON(_ line: ArraySlice<UInt8>) -> Bool {
    (try? JSONSerialization.jsonObject(with: Data(line), options: .fragmentsAllowed)) != nil
  }
}
