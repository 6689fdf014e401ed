import ActionLog
import Foundation

/// Writes and reads the todo app's part of the journal: its entries and their extra keys.
///
/// An entry carries `inverse` and `undoes` beside the action log's `seq`, `type` and `payload`.
/// The header, the splitting into lines and the torn-tail rule are the action log's own
/// (``ActionLogHeader``, ``JSONLines``), so the journal is read and written by the same rules.
enum JournalCodec {
  /// The journal's first line, without its newline: an action-log header naming the app.
  static let header = ActionLogHeader.text(["app": "todo-cli"])

  /// Checks the first line of a journal; `line` excludes the newline.
  static func validateHeader(_ line: ArraySlice<UInt8>, path: String) throws(StorageError) {
    do {
      _ = try ActionLogHeader.validated(Data(line), line: 1)
    } catch .unsupportedVersion(_, let version) {
      throw .damaged(
        path: path, line: 1,
        reason: "unsupported version \(version); this todo-cli reads version "
          + "\(ActionLogFormat.version)")
    } catch .invalidHeader(_, let reason) {
      throw .damaged(
        path: path, line: 1, reason: "the first line is not an action-log header: \(reason)")
    } catch {
      throw .damaged(path: path, line: 1, reason: error.description)
    }
  }

  /// Decodes the entry on `line` (without its newline), which is line `number` of the file.
  static func decodeEntry(
    _ line: ArraySlice<UInt8>, decoder: JSONDecoder, path: String, number: Int
  ) throws(StorageError) -> JournalEntry {
    do {
      return try decoder.decode(JournalEntry.self, from: Data(line))
    } catch {
      throw .damaged(
        path: path, line: number, reason: "unreadable entry (\(LineFailure.summary(of: error)))")
    }
  }

  /// The bytes of `entries`' lines, each ending with a newline.
  ///
  /// Keys come in a fixed order, `seq`, `type`, `payload`, the action log's `time` (whole
  /// seconds since 1970), then the app's own keys, so that the
  /// journal reads well and the same entry is always written the same way.
  static func encode(_ entries: [JournalEntry]) throws(StorageError) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    var text = ""
    do {
      for entry in entries {
        text += "{\"seq\":\(entry.seq),"
        text += try typeAndPayload(entry.change, encoder: encoder)
        if let time = entry.time { text += ",\"time\":\(seconds(time))" }
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

  /// `time` as whole seconds since 1970, the action log's `"time"`; 0 for a time no clock
  /// gives.
  static func seconds(_ time: Date) -> Int {
    let seconds = time.timeIntervalSince1970.rounded(.down)
    guard seconds.isFinite, abs(seconds) < 1e12 else { return 0 }
    return Int(seconds)
  }

  private static func typeAndPayload(_ change: AnyTodoChange, encoder: JSONEncoder) throws
    -> String
  {
    let payload = try encoder.encode(change.change)
    return "\"type\":" + JSONText.quoted(change.typeName) + ",\"payload\":"
      + String(decoding: payload, as: UTF8.self)
  }
}
