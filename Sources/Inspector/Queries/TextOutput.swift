import ActionLog
import Foundation

/// How the inspector writes for people: one line per thing, with every control character
/// escaped so that no log can drive the terminal.
package enum TextOutput {
  /// `text` with control characters, DEL and the C1 controls written as `\u{…}`.
  ///
  /// - Complexity: O(length of `text`).
  package static func safe(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: isControl) else { return text }
    var output = ""
    for scalar in text.unicodeScalars {
      if isControl(scalar) {
        output += "\\u{" + String(scalar.value, radix: 16) + "}"
      } else {
        output.unicodeScalars.append(scalar)
      }
    }
    return output
  }

  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// A value on one line, as compact JSON (already escaped), or `(none)`.
  package static func value(_ value: JSONValue?) -> String {
    value?.text() ?? "(none)"
  }

  /// `scope/Type`, or `Type` for the root.
  package static func label(_ entry: InspectedEntry) -> String {
    safe(entry.scope.isEmpty ? entry.type : entry.scope + " " + entry.type)
  }

  /// One line for a change of a diff: `replace /todos[id=3]/done: false → true`,
  /// `add /todos[id=4] at 2: {…}`, `move /todos[id=3] from 2 to 0`.
  package static func change(_ change: JSONChange) -> String {
    let path = safe(JSONPath.text(change.path))
    let place = change.index.map { " at \($0)" } ?? ""
    switch change.operation {
    case .add: return "add \(path)\(place): \(value(change.value))"
    case .remove: return "remove \(path)\(place): \(value(change.old))"
    case .replace:
      return "replace \(path): \(value(change.old)) → \(value(change.value))"
    case .move:
      let from = change.from.map { " from \($0)" } ?? ""
      let to = change.index.map { " to \($0)" } ?? ""
      return "move \(path)\(from)\(to)"
    }
  }

  /// One line of the timeline for `entry`.
  package static func timelineLine(_ entry: InspectedEntry) -> String {
    var columns = [String(entry.sequence)]
    columns.append(entry.time.map(TimeText.date) ?? "-")
    columns.append(entry.scope.isEmpty ? "-" : safe(entry.scope))
    columns.append(safe(entry.type))
    columns.append(entry.cause.map { "cause: " + safe($0) } ?? "-")
    if let reason = entry.unrecordedReason {
      columns.append("unrecorded: " + safe(reason))
    }
    if let diff = entry.diff {
      let paths = diff.prefix(3).map { safe(JSONPath.text($0.path)) }
      let more = diff.count > 3 ? " +\(diff.count - 3)" : ""
      columns.append(
        diff.isEmpty ? "no change" : "changed " + paths.joined(separator: " ") + more)
    }
    return columns.joined(separator: "  ")
  }
}
