import ActionLog
import Foundation

extension SessionIndex {
  /// Opens the log file at `path`, to be read a chunk at a time from its start, with its
  /// progress shown.
  ///
  /// - Throws: ``LogTail/Failure/unreadable(_:)`` when it cannot be opened.
  package init(path: String) throws(LogTail.Failure) {
    let lines = try LogLines(path: path)
    self.init(lines: lines)
    progress = ReadingProgress(bytesRead: 0, fileSize: try lines.size())
  }

  /// Reads the next `maximumBytes` bytes of the log, or as many as there are: finds their
  /// newlines and tells their lines apart, decoding only the lines that do not begin as an
  /// entry's.
  ///
  /// At the end of the file, a log read whole takes the bytes after its last newline as its
  /// last line when they are complete JSON (a hand-edited file), and as damage otherwise (a
  /// write cut short); a log that is followed waits for the line's newline instead.
  ///
  /// - Returns: Whether there is more to read now, later (when `following`), or never.
  /// - Complexity: O(`maximumBytes`), plus the length of the lines decoded.
  package mutating func read(
    upTo maximumBytes: Int = LineIndex.chunkBytes, following: Bool
  ) -> Reading {
    guard readingDamage == nil else { return .finished }
    do throws(LogDamage) {
      let start = index.indexedBytes
      let count = try lines.read(at: start, count: maximumBytes, into: &chunk)
      // Until the header is read, every line is looked at; after it, only the lines that do
      // not begin as an entry's.
      let prefix = hasHeader ? Self.entryPrefix : nil
      var listed: [Int] = []
      chunk.withUnsafeBytes {
        index.append(
          UnsafeRawBufferPointer(rebasing: $0[0..<count]), listingLinesNotBeginningWith: prefix,
          orLongerThan: LogScanner.maximumLineLength, in: &listed)
      }
      try classifyLines(listed, readFrom: start)
      if start == 0 { expectLines() }
      progress?.bytesRead = index.indexedBytes
      let unfinished = index.indexedBytes - index.unfinishedLineStart
      guard unfinished <= LogScanner.maximumLineLength else {
        throw LogDamage(
          line: classifiedLines + 1, reason: "longer than \(LogScanner.maximumLineLength) bytes")
      }
      guard count < maximumBytes else { return .more }
      progress = nil
      guard index.indexedBytes > 0 else { throw LogFileReader.emptyFile }
      guard !following else { return .caughtUp }
      if unfinished > 0 { try readLastLine() }
      return .finished
    } catch {
      progress = nil
      readingDamage = error
      return .finished
    }
  }

  /// Tells apart the lines `listed` among those indexed since the last call.
  ///
  /// The chunk read last starts at byte `chunkStart`. A line that begins `{"seq":` after the
  /// header is an entry; any other is decoded now. The lines not listed begin as an entry's.
  ///
  /// - Throws: ``LogDamage`` for the first line that cannot be decoded or is too long.
  /// - Complexity: O(lines listed), plus the length of the lines decoded.
  private mutating func classifyLines(_ listed: [Int], readFrom chunkStart: Int) throws(LogDamage) {
    let prefix = Self.entryPrefix
    for line in listed {
      guard let range = index.range(ofLine: line) else { break }
      do throws(LogDamage) {
        guard range.count <= LogScanner.maximumLineLength else {
          throw LogDamage(
            line: line + 1, reason: "longer than \(LogScanner.maximumLineLength) bytes")
        }
        let offset = range.lowerBound - chunkStart
        if hasHeader, range.count >= prefix.count {
          let begins =
            offset >= 0
            ? prefix.begins(chunk[offset...])
            // The line began in an earlier chunk.
            : prefix.begins(
              try lines.bytes(at: range.lowerBound..<(range.lowerBound + prefix.count)))
          if begins { continue }
        }
        var scanner = scanner(forLine: line)
        let record =
          offset >= 0
          ? try scanner.read(chunk, offset..<(offset + range.count))
          : try scanner.read(try lines.bytes(at: range), 0..<range.count)
        note(record, onLine: line, readBy: scanner)
      } catch {
        classifiedLines = line
        throw error
      }
    }
    classifiedLines = index.lineCount
  }

  /// Makes room, after the first chunk, for as many lines as a file of this size holds at the
  /// first chunk's average length (at most 16 million), so that the index grows without
  /// copying itself.
  private mutating func expectLines() {
    guard let size = progress?.fileSize, index.lineCount > 0 else { return }
    let averageLength = max(1, index.indexedBytes / index.lineCount)
    let expected = min(size / averageLength, 1 << 24)
    index.reserveCapacity(lines: expected + expected / 8)
  }

  /// A scanner for `line` alone: the header's until it has been read.
  private func scanner(forLine line: Int) -> LogScanner {
    hasHeader
      ? LogScanner(rereadingLine: line + 1, version: formatVersion) : LogScanner(line: line + 1)
  }

  /// Keeps what the line decoded while reading holds: the header, a blank line or a checkpoint
  /// are the lines that are not entries; a checkpoint is kept decoded.
  private mutating func note(_ record: LogRecord?, onLine line: Int, readBy scanner: LogScanner) {
    if !hasHeader, scanner.hasReadHeader { formatVersion = scanner.version }
    hasHeader = hasHeader || scanner.hasReadHeader
    switch record {
    case nil, .effect?:
      otherLines.append(line)
    case .checkpoint(let sequence, _, let state)?:
      otherLines.append(line)
      checkpointLines.append(line)
      checkpoints[line] = Checkpoint(sequence: sequence, state: state)
    case .entry?:
      break
    }
  }

  /// Reads the bytes after the last newline as the last line, by
  /// ``LogFileReader/readLastLine(_:_:with:)``'s rule.
  private mutating func readLastLine() throws(LogDamage) {
    let bytes = try lines.bytes(at: index.unfinishedLineStart..<index.indexedBytes)
    let line = index.lineCount
    var scanner = scanner(forLine: line)
    let record = try LogFileReader.readLastLine(bytes, bytes.indices, with: &scanner)
    index.endLastLine()
    note(record, onLine: line, readBy: scanner)
    classifiedLines = index.lineCount
  }
}
