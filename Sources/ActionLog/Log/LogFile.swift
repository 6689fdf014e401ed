import Foundation

/// Opens a log file for appending: creates it with a header, or checks the existing one and
/// finds where its numbering stops.
enum LogFile {
  struct Opened {
    let handle: FileHandle
    /// The last `seq` (or checkpoint number) in the file, 0 if none.
    let lastSequence: Int
    /// Whether the file is new or empty and still needs its header.
    let needsHeader: Bool
  }

  /// Opens `url` to append entries recorded from a `stateType` store.
  ///
  /// The torn tail a crash leaves (see ``JSONLines``) is cut off: it holds no complete entry,
  /// and leaving it would put a malformed line in the middle of the log. A complete last line
  /// that only lacks its newline (a hand-edited file) gets one.
  ///
  /// - Complexity: O(size of the file), read once.
  static func openForAppending(_ url: URL, stateType: Any.Type) throws(ActionLogError) -> Opened {
    let path = url.path
    do {
      if !FileManager.default.fileExists(atPath: path) {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
          throw ActionLogError.fileError(path: path, reason: "cannot create the file")
        }
      }
      let bytes = [UInt8](try Data(contentsOf: url))
      let handle = try FileHandle(forUpdating: url)
      guard !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else {
        try handle.truncate(atOffset: 0)
        return Opened(handle: handle, lastSequence: 0, needsHeader: true)
      }
      let tail = try examine(bytes, stateType: stateType)
      if let cut = tail.truncateAt {
        try handle.truncate(atOffset: UInt64(cut))
      }
      try handle.seekToEnd()
      if tail.needsNewline { try handle.write(contentsOf: Data("\n".utf8)) }
      return Opened(
        handle: handle, lastSequence: tail.lastSequence, needsHeader: tail.truncateAt == 0)
    } catch let error as ActionLogError {
      throw error
    } catch {
      throw .fileError(path: path, reason: error.localizedDescription)
    }
  }

  private struct Tail {
    var lastSequence = 0
    var truncateAt: Int?
    var needsNewline = false
  }

  private static func examine(_ bytes: [UInt8], stateType: Any.Type) throws(ActionLogError) -> Tail
  {
    var (lines, tornStart) = JSONLines.readable(bytes)
    var tail = Tail()
    if let tornStart {
      let torn = bytes[tornStart...]
      if !torn.contains(0x0A), JSONLines.isJSON(torn) {
        tail.needsNewline = true
        lines.append(tornStart..<bytes.count)
      } else if tornStart > 0 || torn.allSatisfy({ $0 == 0 || $0 == 0x0A }) {
        tail.truncateAt = tornStart
      } else {
        // A lone first line cut short may not be a log at all: the header check below refuses
        // the file rather than erasing it. Only a power cut's NUL bytes are erased whole.
        lines.append(tornStart..<bytes.count)
      }
    }
    guard let first = lines.first else { return tail }
    let header = try ActionLogHeader.validated(Data(bytes[first]), line: 1)
    let storeState = String(describing: stateType)
    if let logged = header.state, logged != storeState {
      throw .stateTypeMismatch(logged: logged, store: storeState)
    }
    for (offset, line) in lines.enumerated().dropFirst().reversed() {
      guard
        let object = try? JSONSerialization.jsonObject(with: Data(bytes[line])) as? [String: Any],
        let sequence = (object["seq"] ?? object["checkpoint"]) as? Int
      else { continue }
      guard LogSequence.checkpoints.contains(sequence) else {
        throw .malformedLine(
          line: offset + 1,
          reason: "seq \(sequence) is outside \(LogSequence.describe(LogSequence.entries)), "
            + "so no entry can follow it")
      }
      tail.lastSequence = sequence
      break
    }
    return tail
  }
}
