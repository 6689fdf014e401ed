import ActionLog
import Foundation

/// Reads and writes the journal's lines.
enum JournalCodec {
  /// The journal's first line.
  static let header = #"{"format":"statestore-action-log","version":1,"app":"todo-cli"}"#

  private struct Header: Decodable {
    var format: String
    var version: Int
  }

  /// Checks the first line of a journal; `line` excludes the newline.
  static func validateHeader(_ line: ArraySlice<UInt8>, path: String) throws(StorageError) {
    let header: Header
    do {
      header = try JSONDecoder().decode(Header.self, from: Data(line))
    } catch {
      throw .damaged(
        path: path, line: 1,
        reason: "the first line is not an action-log header "
          + #"({"format":"statestore-action-log","version":1})"#)
    }
    guard header.format == "statestore-action-log" else {
      throw .damaged(path: path, line: 1, reason: "unknown format \"\(header.format)\"")
    }
    guard header.version == 1 else {
      throw .damaged(
        path: path, line: 1,
        reason: "unsupported version \(header.version); this todo-cli reads version 1")
    }
  }

  /// Decodes the entry on `line` (without its newline), which is line `number` of the file.
  static func decodeEntry(
    _ line: ArraySlice<UInt8>, decoder: JSONDecoder, path: String, number: Int
  ) throws(StorageError) -> JournalEntry {
    do {
      return try decoder.decode(JournalEntry.self, from: Data(line))
    } catch {
      throw .damaged(path: path, line: number, reason: "unreadable entry (\(describe(error)))")
    }
  }

  /// The bytes of `entries`' lines, each ending with a newline.
  ///
  /// Keys come in a fixed order, `seq`, `type`, `payload`, then the app's own keys, so that the
  /// journal reads well and the same entry is always written the same way.
  static func encode(_ entries: [JournalEntry]) throws(StorageError) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    var text = ""
    do {
      for entry in entries {
        text += "{\"seq\":\(entry.seq),"
        text += try typeAndPayload(entry.change, encoder: encoder)
        if let inverse = entry.inverse {
          text += ",\"inverse\":{" + (try typeAndPayload(inverse, encoder: encoder)) + "}"
        }
        if let undoes = entry.undoes { text += ",\"undoes\":\(undoes)" }
        text += "}\n"
      }
    } catch {
      throw .systemCall(operation: "encode", path: "a journal entry", reason: "\(error)")
    }
    return Array(text.utf8)
  }

  private static func typeAndPayload(_ change: AnyTodoChange, encoder: JSONEncoder) throws
    -> String
  {
    let payload = try encoder.encode(change.change)
    return "\"type\":" + JSONText.quoted(change.typeName) + ",\"payload\":"
      + String(decoding: payload, as: UTF8.self)
  }

  /// The ranges of the complete lines in `bytes` (without newlines), and where the incomplete
  /// last line starts, if there is one.
  ///
  /// - Complexity: O(bytes).
  static func lines(in bytes: [UInt8], from start: Int = 0) -> (
    lines: [Range<Int>], tornStart: Int?
  ) {
    var lines: [Range<Int>] = []
    var lineStart = start
    var index = start
    bytes.withUnsafeBufferPointer { buffer in
      while index < buffer.count {
        if buffer[index] == 0x0A {
          lines.append(lineStart..<index)
          lineStart = index + 1
        }
        index += 1
      }
    }
    return (lines, lineStart < bytes.count ? lineStart : nil)
  }

  /// A short, readable account of a decoding error.
  static func describe(_ error: any Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context):
      return describe(context)
    case DecodingError.keyNotFound(let key, let context):
      return "missing \"\(key.stringValue)\"" + at(context.codingPath)
    case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
      return describe(context)
    default:
      return "\(error)"
    }
  }

  private static func describe(_ context: DecodingError.Context) -> String {
    var text = context.debugDescription
    if let underlying = context.underlyingError {
      text += ": \(underlying.localizedDescription)"
    }
    return text + at(context.codingPath)
  }

  private static func at(_ path: [any CodingKey]) -> String {
    path.isEmpty ? "" : " at " + path.map(\.stringValue).joined(separator: ".")
  }
}
