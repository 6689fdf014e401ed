import Foundation

/// The constants of the action-log file format, documented in `Docs/ActionLog.md`.
///
/// A log is UTF-8 JSON Lines. The first line is the header; every other line is an entry
/// (`{"seq":1,"type":"AddTodo","payload":{…}}`), a checkpoint (`{"checkpoint":1,"state":{…}}`) or
/// a marker for an updater that could not be recorded (`{"seq":2,"unrecorded":"Name"}`).
public enum ActionLogFormat {
  /// The value of the header's `format` key.
  public static let name = "statestore-action-log"
  /// The format version this library writes, and the newest it reads.
  public static let version = 1
}

/// The keys of every kind of log line.
enum LogKey: String, CodingKey {
  case format, version, state, created
  case seq, type, payload, cause, time
  case checkpoint
  case unrecorded, reason
}

/// The header line, as read back.
struct LogHeader: Decodable {
  var format: String?
  var version: Int?
  var state: String?

  /// Decodes and checks a header line: the right format, a version this library reads.
  static func validated(
    _ text: Data, line: Int, decoder: JSONDecoder
  ) throws(ActionLogError) -> LogHeader {
    let header: LogHeader
    do {
      header = try decoder.decode(LogHeader.self, from: text)
    } catch {
      let (path, reason) = LineFailure.describe(error)
      throw .invalidHeader(line: line, reason: path == "line" ? reason : "\(path): \(reason)")
    }
    guard let format = header.format else {
      throw .invalidHeader(
        line: line,
        reason: "the first line must be the header "
          + #"{"format":"statestore-action-log","version":1}, and it has no "format" key"#)
    }
    guard format == ActionLogFormat.name else {
      throw .invalidHeader(
        line: line, reason: "expected \"format\":\"\(ActionLogFormat.name)\", found \"\(format)\"")
    }
    guard let version = header.version else {
      throw .invalidHeader(line: line, reason: "missing \"version\"")
    }
    guard version >= 1 else {
      throw .invalidHeader(line: line, reason: "version \(version) is not a valid version")
    }
    guard version <= ActionLogFormat.version else {
      throw .unsupportedVersion(line: line, version: version)
    }
    return header
  }
}

/// Helpers that build log lines as bytes, without going through a JSON encoder for the envelope.
enum LogText {
  /// `value` as a JSON string literal, quotes included.
  ///
  /// - Complexity: O(value's length).
  static func quoted(_ value: String) -> String {
    var result = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case let control where control.value < 0x20:
        let hex = String(control.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// The header line for a new log of `stateType`, newline included.
  static func header(stateType: Any.Type, created: Date) -> Data {
    let timestamp = created.formatted(.iso8601)
    return Data(
      ("{\"format\":\(quoted(ActionLogFormat.name)),\"version\":\(ActionLogFormat.version),"
        + "\"state\":\(quoted(String(describing: stateType))),\"created\":\(quoted(timestamp))}\n")
        .utf8)
  }

  /// A number of seconds as JSON, with millisecond precision.
  static func seconds(_ date: Date) -> String {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return "0" }
    let whole = Int64(milliseconds)
    let sign = whole < 0 ? "-" : ""
    let magnitude = whole.magnitude
    let fraction = String(magnitude % 1000)
    return sign + String(magnitude / 1000) + "."
      + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}
