import ActionLog
import Foundation

/// One entry of an action log, read without the app's types: its envelope, its payload and its
/// diff as plain JSON.
package struct InspectedEntry: Sendable, Equatable {
  /// The entry's `seq`.
  package var sequence: Int
  /// The line of the file it was read from; the header is line 1.
  package var line: Int
  /// The registered name of the updater, or the Swift type of an unrecorded one.
  package var type: String
  /// The scope it was dispatched through, `""` for the root.
  package var scope: String
  /// What dispatched it, if the log says.
  package var cause: String?
  /// The `fileID:line` of the `dispatch` that sent it, if the log says.
  package var site: String?
  /// The `fileID:line` that dispatched the effect named by ``cause``, if the log says.
  package var causeSite: String?
  /// The causes above ``cause``, nearest first: the effects (or action) that dispatched it.
  package var causeParents: [CauseStep] = []
  /// When it was applied, in seconds since 1970, if the log says.
  package var time: Double?
  /// The updater's encoding; `nil` for an unrecorded entry.
  package var payload: JSONValue?
  /// What it changed in the encoded state, when the log was recorded in diff mode.
  package var diff: [JSONChange]?
  /// Why the recorder could not record the updater, for an unrecorded marker.
  package var unrecordedReason: String?
  /// The number of the side effect that dispatched it, when the log says.
  package var effect: Int?

  /// The entry as a JSON object: `seq`, `line`, `type`, `scope`, then `cause`, `time`,
  /// `payload`, `diff` and `unrecorded` where the log has them.
  package var json: JSONValue {
    var object = JSONObject()
    object["seq"] = .number(String(sequence))
    object["line"] = .number(String(line))
    object["type"] = .string(type)
    object["scope"] = .string(scope)
    if let cause { object["cause"] = .string(cause) }
    if let site { object["site"] = .string(site) }
    if let causeSite { object["causeSite"] = .string(causeSite) }
    if let effect { object["effect"] = .number(String(effect)) }
    if !causeParents.isEmpty {
      object["causeParents"] = .array(
        causeParents.map { parent in
          var step = JSONObject()
          step["name"] = .string(parent.name)
          if let site = parent.site { step["site"] = .string(site) }
          return .object(step)
        })
    }
    if let time { object["time"] = .number(TimeText.seconds(time)) }
    if let payload { object["payload"] = payload }
    if let diff { object["diff"] = JSONChange.json(diff) }
    if let unrecordedReason { object["unrecorded"] = .string(unrecordedReason) }
    return .object(object)
  }

}

/// One cause in the chain above an entry's cause: a name and the site it was dispatched from.
package struct CauseStep: Sendable, Equatable {
  /// The cause's name: an effect's type, or a labelled action.
  package var name: String
  /// The `fileID:line` it was dispatched from, if the log says.
  package var site: String?
}

/// A line of an action log after its header.
package enum LogRecord: Sendable, Equatable {
  /// An entry, recorded or not.
  case entry(InspectedEntry)
  /// A checkpoint: the whole state after entry `sequence` (0 before any).
  case checkpoint(sequence: Int, line: Int, state: JSONValue)
  /// An effect line: a side effect's start, a value it got, or its end.
  case effect(EffectLine, line: Int)
}

/// Where and why a log stops being readable.
package struct LogDamage: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file at fault, within a journal's directory; `nil` for the log itself.
  package var file: String?
  /// The line at fault; the header is line 1.
  package var line: Int
  /// What is wrong with it.
  package var reason: String

  /// Creates a damage report for `line` of `file` (the log itself by default).
  package init(file: String? = nil, line: Int, reason: String) {
    self.file = file
    self.line = line
    self.reason = reason
  }

  /// `line N: reason`, or `FILE line N: reason`.
  package var description: String {
    (file.map { "\($0) " } ?? "") + "line \(line): \(reason)"
  }
}
