import ActionLog
import Foundation
import Testing

@testable import Inspector

/// The terminal interface's line index: newlines found a chunk at a time, each line told apart
/// by its first bytes in the same pass, offsets kept in 4 bytes.
@Suite("statestore-inspect's line index: newlines and first bytes in one pass")
struct LineIndexTests {
  static let entryPrefix = LinePrefix(#"{"seq":"#.utf8)

  /// `text` indexed `chunk` bytes at a time from byte `start`, and the lines listed.
  static func index(
    _ text: String, chunk: Int, prefix: LinePrefix?, from start: Int = 0
  ) -> (index: LineIndex, listed: [Int]) {
    var index = LineIndex(skippingBytes: start)
    var listed: [Int] = []
    let bytes = Array(text.utf8)
    var position = 0
    while position < bytes.count {
      let end = min(position + chunk, bytes.count)
      bytes[position..<end].withUnsafeBytes {
        index.append($0, listingLinesNotBeginningWith: prefix, orLongerThan: 40, in: &listed)
      }
      position = end
    }
    return (index, listed)
  }

  static let text =
    #"{"seq":1}"# + "\nheader line\n\n" + #"{"seq":2,"type":"x"}"# + "\n{\"se\n"
    + #"{"seq":"# + String(repeating: "9", count: 40) + "}\n" + #"{"seq":3}"# + "\ntail"

  @Test("Every chunk size finds the same lines and lists every line that is not an entry's")
  func chunkSizesAgree() {
    let bytes = Array(Self.text.utf8)
    let newlines = bytes.indices.filter { bytes[$0] == 0x0A }
    for chunk in [1, 2, 3, 7, 8, 9, 16, 64, 1 << 20] {
      let (index, listed) = Self.index(Self.text, chunk: chunk, prefix: Self.entryPrefix)
      #expect(index.lineCount == 7, "chunk \(chunk)")
      for line in 0..<7 {
        let start = line == 0 ? 0 : newlines[line - 1] + 1
        #expect(index.range(ofLine: line) == start..<newlines[line], "chunk \(chunk)")
      }
      #expect(index.range(ofLine: 7) == nil)
      #expect(index.unfinishedLineStart == bytes.count - 4)
      #expect(index.indexedBytes == bytes.count)
      // The header, the blank line, the line too short for the prefix, the line too long.
      #expect(Set(listed).isSuperset(of: [1, 2, 4, 5]), "chunk \(chunk)")
      #expect(listed == listed.sorted())
      for line in Set(0..<7).subtracting(listed) {
        let range = index.range(ofLine: line) ?? 0..<0
        #expect(Self.entryPrefix.begins(bytes[range]) && range.count <= 40, "chunk \(chunk)")
      }
    }
    let whole = Self.index(Self.text, chunk: 1 << 20, prefix: Self.entryPrefix)
    #expect(whole.listed == [1, 2, 4, 5], "in one chunk, only those")
  }

  @Test("Without a prefix every line is listed; with the empty prefix only lines not seen whole")
  func everyLineOrNone() {
    #expect(Self.index(Self.text, chunk: 5, prefix: nil).listed == Array(0..<7))
    #expect(
      Self.index(Self.text, chunk: 1 << 20, prefix: LinePrefix([])).listed == [5],
      "only the line longer than 40 bytes")
  }

  @Test("Offsets past each multiple of 4 GiB keep their high bits")
  func offsetsPast4GiB() {
    for start in [(1 << 32) - 6, (3 << 32) - 1, (5 << 32) + 7] {
      for chunk in [1, 4, 1 << 20] {
        var (index, _) = Self.index("abc\n0123456789\nx\n", chunk: chunk, prefix: nil, from: start)
        #expect(index.range(ofLine: 0) == 0..<(start + 3), "the first line starts the file")
        #expect(index.range(ofLine: 1) == (start + 4)..<(start + 14))
        #expect(index.range(ofLine: 2) == (start + 15)..<(start + 16))
        #expect(index.unfinishedLineStart == start + 17)
        index.append(UnsafeRawBufferPointer(start: nil, count: 0))
        [UInt8]("yz".utf8).withUnsafeBytes { index.append($0) }
        index.endLastLine()
        #expect(index.range(ofLine: 3) == (start + 17)..<(start + 19))
      }
    }
  }

  @Test("The timeline without a filter holds only a count; with one, the entries kept")
  func timelineEntries() {
    var all = TimelineEntries()
    all.append(contentsOf: 0..<5)
    all.append(5)
    #expect(Array(all) == [0, 1, 2, 3, 4, 5])
    #expect(all.firstIndex(of: 4) == 4 && !all.contains(6) && all.contains(0))
    var some = all
    some.append(8)
    some.append(contentsOf: 9..<11)
    #expect(Array(some) == [0, 1, 2, 3, 4, 5, 8, 9, 10])
    #expect(some.firstIndex(of: 8) == 6 && some.firstIndex(of: 7) == nil)
    #expect(some.position(ofFirstFrom: 6) == 6 && some.position(ofFirstFrom: 11) == 9)
    some.removeEntries(from: 9)
    #expect(Array(some) == [0, 1, 2, 3, 4, 5, 8])
    all.removeEntries(from: 2)
    #expect(Array(all) == [0, 1] && all == TimelineEntries(allUpTo: 2))
    let kept = TimelineEntries(matching: [2, 4, 9])
    #expect(kept.firstIndex(of: 9) == 2 && kept.last == 9 && kept.firstIndex(of: 3) == nil)
  }

  @Test("A log read a few bytes at a time holds what it holds read whole, damage included")
  func sessionReadInSmallChunks() {
    // Entry 6 has no diff: the states after it are known from the checkpoint after it on.
    let withCheckpoint =
      "\n"
      + LazyIndexTests.counterLog(entries: 12) {
        $0 == 6
          ? #"{"seq":6,"type":"Inc","payload":{}}"# + "\n\n" + #"{"checkpoint":6,"state":{"n":6}}"#
          : nil
      }
    let damaged = LazyIndexTests.counterLog(entries: 9) { $0 == 7 ? #"{"checkpoint":6,"st"# : nil }
    #expect(SessionIndex.reading(damaged).damage?.line == 9)
    let afterCheckpoint = SessionIndex.reading(withCheckpoint)
    #expect(afterCheckpoint.state(afterEntry: 5) == nil)
    #expect(afterCheckpoint.state(afterEntry: 6) == .object(JSONObject([("n", .number("7"))])))
    for (log, entries) in [(withCheckpoint, 12), (damaged, 6)] {
      let whole = SessionIndex.reading(log)
      #expect(whole.entryCount == entries)
      for chunk in [1, 3, 7, 8, 13, 64] {
        var session = SessionIndex(lines: LogLines(data: Data(log.utf8)))
        while session.read(upTo: chunk, following: false) != .finished {}
        #expect(session.entryCount == whole.entryCount, "chunk \(chunk)")
        #expect(session.linesRead == whole.linesRead, "chunk \(chunk)")
        #expect(session.damage == whole.damage, "chunk \(chunk)")
        #expect(session.decodedEntryCount == 0, "no entry decoded")
        for entry in 0..<entries {
          #expect(session.state(afterEntry: entry) == whole.state(afterEntry: entry))
        }
      }
    }
  }
}
