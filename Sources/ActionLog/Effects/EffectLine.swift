import Foundation
import StateStore

/// One effect line of an action log: an effect's start, a value it got, or its end.
///
/// ```text
/// {"effect":1,"start":"Search","after":4,"id":"search","site":"App/SearchField.swift:31","cause":"user: type"}
/// {"effect":1,"value":"SearchResults","data":{"items":["milk"]}}
/// {"effect":1,"end":"finished","duration":0.25}
/// ```
package enum EffectLine: Sendable, Equatable {
  case start(RecordedEffect)
  case value(effect: Int, RecordedEffect.Value)
  case end(effect: Int, RecordedEffect.End, duration: Duration?)

  /// The number of the effect the line is about.
  package var effect: Int {
    switch self {
    case .start(let effect): effect.number
    case .value(let number, _), .end(let number, _, _): number
    }
  }

  // MARK: - Writing

  /// The start line of `start`, numbered `number`, after entry `after`, with the effect's
  /// encoding when its type is registered.
  static func startLine(_ start: EffectLogStart, number: Int, after: Int, payload: Data?) -> Data {
    var line = Data(startText(start, number: number, after: after).dropLast(2).utf8)
    if let payload {
      line.append(contentsOf: ",\"payload\":".utf8)
      line.append(payload)
    }
    line.append(contentsOf: "}\n".utf8)
    return line
  }

  /// The start line of `start` without its payload.
  private static func startText(_ start: EffectLogStart, number: Int, after: Int) -> String {
    var text = "{\"effect\":\(number),\"start\":\(JSONText.quoted(start.type)),\"after\":\(after)"
    if let id = start.id { text += ",\"id\":" + JSONText.quoted(id) }
    if let site = start.cause.site { text += ",\"site\":" + JSONText.quoted(site.description) }
    if let cause = start.cause.parent { text += ",\"cause\":" + JSONText.quoted(cause.name) }
    if let parent = start.parent { text += ",\"parent\":\(parent)" }
    return text + "}\n"
  }

  /// The line of a value `json` (already JSON text) labelled `label` of effect `number`.
  static func valueText(_ json: Data, label: String, effect number: Int) -> Data {
    var line = Data("{\"effect\":\(number),\"value\":\(JSONText.quoted(label)),\"data\":".utf8)
    line.append(json)
    line.append(contentsOf: "}\n".utf8)
    return line
  }

  /// The line of a dependency call of effect `number` that threw `failure`.
  static func failureText(_ failure: String, label: String, effect number: Int) -> String {
    "{\"effect\":\(number),\"value\":\(JSONText.quoted(label)),\"error\":\(JSONText.quoted(failure))}\n"
  }

  /// The end line of effect `number`.
  static func endText(_ outcome: EffectLogOutcome, effect number: Int, duration: Duration?)
    -> String
  {
    var text = "{\"effect\":\(number),\"end\":"
    switch outcome {
    case .finished: text += "\"finished\""
    case .failed(let error): text += "\"failed\",\"error\":" + JSONText.quoted(error)
    case .cancelled(let cause): text += "\"cancelled\",\"by\":" + JSONText.quoted(cause)
    }
    if let duration { text += ",\"duration\":" + seconds(duration) }
    return text + "}\n"
  }

  /// `duration` in seconds, to the microsecond.
  package static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let micros = Double(seconds) * 1e6 + Double(attoseconds / 1_000_000_000_000)
    return String(format: "%.6f", micros / 1e6)
  }

  // MARK: - Reading

  /// Reads an effect line, `text`, line `line` of its log, after entry `after`.
  ///
  /// - Throws: ``ActionLogError/malformedLine(line:reason:)`` naming what is wrong.
  package static func parse(_ text: some Collection<UInt8>, line: Int, after: Int)
    throws(ActionLogError) -> EffectLine
  {
    let value: JSONValue
    do {
      value = try JSONParser.parse(text)
    } catch {
      throw .malformedLine(line: line, reason: "effect line: \(error)")
    }
    return try parse(value, line: line, after: after)
  }

  /// Reads an effect line already parsed as JSON, `value`, line `line` of its log, after entry
  /// `after`.
  ///
  /// - Throws: ``ActionLogError/malformedLine(line:reason:)`` naming what is wrong.
  package static func parse(_ value: JSONValue, line: Int, after: Int)
    throws(ActionLogError) -> EffectLine
  {
    func fail(_ reason: String) -> ActionLogError {
      .malformedLine(line: line, reason: "effect line: \(reason)")
    }
    guard case .number(let numberText)? = value["effect"], let number = Int(numberText),
      number >= 1
    else { throw fail("\"effect\" must be a number from 1") }
    func string(_ key: String) throws(ActionLogError) -> String? {
      switch value[key] {
      case nil: return nil
      case .string(let text)?: return text
      default: throw fail("\"\(key)\" must be a string")
      }
    }
    func integer(_ key: String) throws(ActionLogError) -> Int? {
      switch value[key] {
      case nil: return nil
      case .number(let text)?:
        guard let number = Int(text) else { throw fail("\"\(key)\" must be an integer") }
        return number
      default: throw fail("\"\(key)\" must be an integer")
      }
    }
    if let type = try string("start") {
      return .start(
        RecordedEffect(
          number: number, type: type, cancellationID: try string("id"),
          afterEntry: try integer("after") ?? after,
          site: try string("site").flatMap(DispatchSite.init(logText:)), cause: try string("cause"),
          parent: try integer("parent"), payload: value["payload"], line: line))
    }
    if let label = try string("value") {
      if let failure = try string("error") {
        return .value(effect: number, RecordedEffect.Value(label: label, failure: failure))
      }
      guard let data = value["data"] else { throw fail("a value needs \"data\" or \"error\"") }
      return .value(effect: number, RecordedEffect.Value(label: label, json: data))
    }
    if let end = try string("end") {
      var duration: Duration?
      switch value["duration"] {
      case nil: break
      case .number(let text)?:
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
          throw fail("\"duration\" must be a number of seconds")
        }
        duration = .microseconds(Int64((seconds * 1e6).rounded()))
      default: throw fail("\"duration\" must be a number of seconds")
      }
      switch end {
      case "finished": return .end(effect: number, .finished, duration: duration)
      case "failed":
        return .end(effect: number, .failed(try string("error") ?? ""), duration: duration)
      case "cancelled":
        return .end(effect: number, .cancelled(by: try string("by") ?? ""), duration: duration)
      default:
        throw fail("\"end\" must be \"finished\", \"failed\" or \"cancelled\", not \"\(end)\"")
      }
    }
    throw fail("neither a start (\"start\"), a value (\"value\") nor an end (\"end\")")
  }

  /// Gathers effect lines into effects, in the order they started.
  ///
  /// A start with the number of an earlier effect begins a new effect: two recorders that
  /// append to one file at once may both number effects after those they found there.
  ///
  /// - Throws: ``ActionLogError/malformedLine(line:reason:)`` for a value or an end of an
  ///   effect that did not start before it.
  /// - Complexity: O(lines).
  package static func gather(_ lines: [(EffectLine, line: Int)]) throws(ActionLogError)
    -> [RecordedEffect]
  {
    var gathered = GatheredEffects()
    for (effectLine, line) in lines { try gathered.add(effectLine, line: line) }
    return gathered.effects
  }
}

/// Effects gathered from their lines as a log is read, in the order they started.
package struct GatheredEffects: Sendable {
  /// The effects so far.
  package private(set) var effects: [RecordedEffect] = []
  /// The position in ``effects`` of each number's latest start.
  private var positions: [Int: Int] = [:]

  package init() {}

  /// The position in ``effects`` of the effect numbered `number` that started last, if any.
  package func position(of number: Int) -> Int? { positions[number] }

  /// Adds what `effectLine`, line `line` of the log, says: a new effect, or a value or an end
  /// of the latest effect with its number.
  ///
  /// - Throws: ``ActionLogError/malformedLine(line:reason:)`` for a value or an end of an
  ///   effect that did not start before it.
  package mutating func add(_ effectLine: EffectLine, line: Int) throws(ActionLogError) {
    if case .start(let effect) = effectLine {
      positions[effect.number] = effects.count
      effects.append(effect)
      return
    }
    guard let position = positions[effectLine.effect] else {
      throw .malformedLine(
        line: line,
        reason: "effect line: effect \(effectLine.effect) has no start line before this one")
    }
    switch effectLine {
    case .start: break
    case .value(_, let value): effects[position].values.append(value)
    case .end(_, let end, let duration):
      effects[position].end = end
      effects[position].duration = duration
    }
  }
}
