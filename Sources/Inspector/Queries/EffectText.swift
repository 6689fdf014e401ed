import ActionLog

/// How the inspector shows an effect line: a line of the timeline, indented under the entry
/// that came before the effect started, and a JSON object.
enum EffectText {
  /// The timeline's line for `effect`, without its newline: its ``description(_:)`` indented
  /// under the entry, `  ↳ effect 1 finished in 0.250000 s`.
  static func line(_ effect: EffectLine) -> String {
    "  \u{21B3} " + description(effect)
  }

  /// What `effect` says, on one line:
  /// `effect 1 Search started at App/Search.swift:31 (id search, cause user: type)`,
  /// `effect 1 value SearchResults: ["milk"]`, `effect 1 finished in 0.250000 s`.
  static func description(_ effect: EffectLine) -> String {
    var text = "effect \(effect.effect) "
    switch effect {
    case .start(let start):
      text += TextOutput.safe(start.type) + " started"
      if let site = start.site { text += " at " + TextOutput.safe(site.description) }
      var notes: [String] = []
      if let id = start.cancellationID { notes.append("id " + TextOutput.safe(id)) }
      if let cause = start.cause { notes.append("cause " + TextOutput.safe(cause)) }
      if let parent = start.parent { notes.append("inside effect \(parent)") }
      if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
    case .value(_, let value):
      text += "value " + TextOutput.safe(value.label) + ": "
      if let failure = value.failure {
        text += "threw " + TextOutput.safe(failure)
      } else {
        text += TextOutput.value(value.json)
      }
    case .end(_, let end, let duration):
      text += TextOutput.safe(end.description)
      if let duration { text += " in " + seconds(duration) + " s" }
    }
    return text
  }

  /// The `--json` object for `effect`, read on line `line`: `effect`, `line`, `event`
  /// (`start`, `value` or `end`), then the event's keys.
  static func json(_ effect: EffectLine, line: Int) -> JSONValue {
    var object = JSONObject()
    object["effect"] = .number(String(effect.effect))
    object["line"] = .number(String(line))
    switch effect {
    case .start(let start):
      object["event"] = .string("start")
      object["type"] = .string(start.type)
      object["after"] = .number(String(start.afterEntry))
      if let id = start.cancellationID { object["id"] = .string(id) }
      if let site = start.site { object["site"] = .string(site.description) }
      if let cause = start.cause { object["cause"] = .string(cause) }
      if let parent = start.parent { object["parent"] = .number(String(parent)) }
    case .value(_, let value):
      object["event"] = .string("value")
      object["label"] = .string(value.label)
      if let failure = value.failure {
        object["error"] = .string(failure)
      } else {
        object["data"] = value.json ?? .null
      }
    case .end(_, let end, let duration):
      object["event"] = .string("end")
      switch end {
      case .finished: object["end"] = .string("finished")
      case .failed(let error):
        object["end"] = .string("failed")
        object["error"] = .string(error)
      case .cancelled(let cause):
        object["end"] = .string("cancelled")
        object["by"] = .string(cause)
      }
      if let duration { object["duration"] = .number(seconds(duration)) }
    }
    return .object(object)
  }

  /// `duration` in seconds, as the log writes it.
  static func seconds(_ duration: Duration) -> String {
    EffectLine.seconds(duration)
  }
}
