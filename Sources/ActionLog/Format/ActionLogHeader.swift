import Foundation

/// The first line of an action log, `{"format":"statestore-action-log","version":1,…}`: written
/// and checked here for every log, the library's and the todo app's journal alike.
package struct ActionLogHeader: Decodable, Sendable {
  /// The `format` key, which must be ``ActionLogFormat/name``.
  package var format: String?
  /// The `version` key, from 1 to ``ActionLogFormat/version``.
  package var version: Int?
  /// The `state` key: the state type a recorder wrote the log for, if it says.
  package var state: String?

  /// The header line, without its newline: `format` and `version`, then `fields` in order, each
  /// value a JSON string.
  ///
  /// - Parameters:
  ///   - version: The format version of the log: 2 for a log with diffs, 1 otherwise
  ///     (see ``ActionLogFormat/version``).
  ///   - fields: The other keys and their values, written in this order.
  /// - Complexity: O(length of `fields`).
  package static func text(
    _ fields: KeyValuePairs<String, String> = [:],
    version: Int = ActionLogFormat.versionWithoutDiffs
  ) -> String {
    var text =
      "{\"format\":\(JSONText.quoted(ActionLogFormat.name)),\"version\":\(version)"
    for (key, value) in fields {
      text += "," + JSONText.quoted(key) + ":" + JSONText.quoted(value)
    }
    return text + "}"
  }

  /// Decodes and checks a header line: the right format, a version this library reads.
  ///
  /// - Parameters:
  ///   - text: The line, without its newline.
  ///   - line: Its line number, for errors.
  /// - Throws: ``ActionLogError/invalidHeader(line:reason:)`` or
  ///   ``ActionLogError/unsupportedVersion(line:version:)``.
  package static func validated(_ text: Data, line: Int) throws(ActionLogError) -> ActionLogHeader {
    let header: ActionLogHeader
    do {
      header = try JSONDecoder().decode(ActionLogHeader.self, from: text)
    } catch {
      throw .invalidHeader(line: line, reason: LineFailure.summary(of: error))
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

extension ActionLogHeader {
  /// The header line a recorder writes for a new log of `stateType`, of format version
  /// `version`, newline included.
  static func recorderLine(
    stateType: Any.Type, created: Date, version: Int = ActionLogFormat.versionWithoutDiffs
  ) -> Data {
    let fields: KeyValuePairs<String, String> = [
      "state": String(describing: stateType), "created": created.formatted(.iso8601),
    ]
    return Data((text(fields, version: version) + "\n").utf8)
  }
}
