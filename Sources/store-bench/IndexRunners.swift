import Foundation
import Inspector

/// I1 through the inspector: the `LineIndex` that `statestore-inspect`'s terminal interface
/// builds over a log before it decodes any entry, a chunk between two frames at a time.
@MainActor
final class LineIndexRunner: Runner {
  let name = "inspector index"
  let entries: Int
  let file: TemporaryFile
  var index = LineIndex()
  var failures: [String] = []

  init(entries: Int, file: TemporaryFile) {
    self.entries = entries
    self.file = file
  }

  var entriesPerOperation: Int { entries }

  func perform(_ operations: Int) {
    for _ in 0..<operations {
      do {
        let data = try LogFileReader.read(file.url.path)
        index = LineIndex()
        while index.indexedBytes < data.count {
          index.advance(in: data, by: LineIndex.chunkBytes)
        }
      } catch {
        failures.append("indexing failed: \(error)")
      }
    }
  }

  func verify(operations: Int) -> [String] {
    // The header line, then one line per entry.
    failures + (index.lineCount == entries + 1 ? [] : ["indexed \(index.lineCount) lines"])
  }
}

/// I2: the terminal interface's whole read of a log, as `statestore-inspect` does it between
/// frames: ``SessionIndex`` reading the file a chunk at a time (newlines found, each line told
/// apart by its first bytes, no entry decoded) and the timeline taking in the entries.
@MainActor
final class InterfaceIndexRunner: Runner {
  let name = "interface's index"
  let entries: Int
  let file: TemporaryFile
  var entryCount = 0
  var timelineCount = 0
  var failures: [String] = []

  init(entries: Int, file: TemporaryFile) {
    self.entries = entries
    self.file = file
  }

  var entriesPerOperation: Int { entries }

  func perform(_ operations: Int) {
    for _ in 0..<operations {
      do {
        var session = try SessionIndex(path: file.url.path)
        var state = BrowserState(title: "bench", following: false, session: session)
        while session.read(following: false) != .finished {
          state.sessionGrew(session)
        }
        state.sessionGrew(session)
        if let damage = session.damage { failures.append("damaged at \(damage)") }
        entryCount = session.entryCount
        timelineCount = state.visible.count
      } catch {
        failures.append("opening failed: \(error)")
      }
    }
  }

  func verify(operations: Int) -> [String] {
    failures + (entryCount == entries ? [] : ["indexed \(entryCount) entries"])
      + (timelineCount == entries ? [] : ["the timeline holds \(timelineCount) entries"])
  }
}

/// I1's floor: the same file mapped the same way, split into lines by counting its newlines
/// with `memchr`, keeping nothing.
@MainActor
final class LineSplitFloor: Runner {
  let name = "memchr split floor"
  let entries: Int
  let file: TemporaryFile
  var lines = 0
  var failures: [String] = []

  init(entries: Int, file: TemporaryFile) {
    self.entries = entries
    self.file = file
  }

  var entriesPerOperation: Int { entries }

  func perform(_ operations: Int) {
    for _ in 0..<operations {
      do {
        let data = try LogFileReader.read(file.url.path)
        lines = data.withUnsafeBytes(countNewlines)
      } catch {
        failures.append("reading failed: \(error)")
      }
    }
  }

  func verify(operations: Int) -> [String] {
    failures + (lines == entries + 1 ? [] : ["split \(lines) lines"])
  }
}

/// I2's floor: the same file read the way the interface reads it, a chunk of
/// ``LineIndex/chunkBytes`` at a time with `pread` into one buffer, split into lines by counting
/// its newlines with `memchr`, keeping nothing.
@MainActor
final class ChunkedSplitFloor: Runner {
  let name = "chunked memchr split floor"
  let entries: Int
  let file: TemporaryFile
  var lines = 0
  var failures: [String] = []

  init(entries: Int, file: TemporaryFile) {
    self.entries = entries
    self.file = file
  }

  var entriesPerOperation: Int { entries }

  func perform(_ operations: Int) {
    for _ in 0..<operations {
      let descriptor = open(file.url.path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        failures.append("cannot open \(file.url.path)")
        return
      }
      defer { close(descriptor) }
      var buffer = [UInt8](repeating: 0, count: LineIndex.chunkBytes)
      var offset = 0
      lines = 0
      while true {
        let read = buffer.withUnsafeMutableBytes { raw -> Int in
          guard let base = raw.baseAddress else { return 0 }
          return pread(descriptor, base, raw.count, off_t(offset))
        }
        guard read > 0 else { break }
        lines += buffer.withUnsafeBytes {
          countNewlines(UnsafeRawBufferPointer(rebasing: $0[0..<read]))
        }
        offset += read
      }
    }
  }

  func verify(operations: Int) -> [String] {
    failures + (lines == entries + 1 ? [] : ["split \(lines) lines"])
  }
}

/// The number of newlines in `bytes`, found with `memchr`; never inlined.
@inline(never)
func countNewlines(_ bytes: UnsafeRawBufferPointer) -> Int {
  guard let base = bytes.baseAddress else { return 0 }
  var count = 0
  var position = 0
  while position < bytes.count, let found = memchr(base + position, 0x0A, bytes.count - position) {
    count += 1
    position = base.distance(to: UnsafeRawPointer(found)) + 1
  }
  return count
}
