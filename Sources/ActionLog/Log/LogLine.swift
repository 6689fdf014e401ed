import Foundation
import StateStore

/// One line of a log after the header, decoded in a single pass.
///
/// The envelope and the payload are decoded together: the `type` key picks the registered
/// updater, which then decodes `payload` from the same container. Unknown keys are ignored.
enum LogLine<S: State>: DecodableWithConfiguration {
  case entry(sequence: Int, type: String, updater: any StateUpdater<S>, cause: String?, time: Date?)
  case checkpoint(sequence: Int)
  case unrecorded(sequence: Int, type: String, reason: String)

  init(from decoder: any Decoder, configuration registry: ActionLogRegistry<S>) throws {
    let container: KeyedDecodingContainer<LogKey>
    do {
      container = try decoder.container(keyedBy: LogKey.self)
    } catch {
      throw LineFailure.malformed("not a JSON object")
    }
    if container.contains(.checkpoint) {
      let sequence = try container.decode(Int.self, forKey: .checkpoint)
      guard LogSequence.checkpoints.contains(sequence) else {
        throw LineFailure.malformed(
          "checkpoint \(sequence) is outside \(LogSequence.describe(LogSequence.checkpoints))")
      }
      self = .checkpoint(sequence: sequence)
      return
    }
    guard container.contains(.seq) else {
      throw LineFailure.malformed(
        "neither an entry (\"seq\", \"type\", \"payload\") nor a checkpoint (\"checkpoint\")")
    }
    let sequence = try container.decode(Int.self, forKey: .seq)
    guard LogSequence.entries.contains(sequence) else {
      throw LineFailure.malformed(
        "seq \(sequence) is outside \(LogSequence.describe(LogSequence.entries))")
    }
    if container.contains(.unrecorded) {
      self = .unrecorded(
        sequence: sequence,
        type: try container.decode(String.self, forKey: .unrecorded),
        reason: try container.decodeIfPresent(String.self, forKey: .reason) ?? "unknown reason")
      return
    }
    let name = try container.decode(String.self, forKey: .type)
    let cause = try container.decodeIfPresent(String.self, forKey: .cause)
    let time = try container.decodeIfPresent(Double.self, forKey: .time).map {
      Date(timeIntervalSince1970: $0)
    }
    guard let codec = registry.codec(named: name) else { throw LineFailure.unknownType(name) }
    guard container.contains(.payload) else { throw LineFailure.malformed("missing \"payload\"") }
    let updater: any StateUpdater<S>
    do {
      updater = try codec.decode(container)
    } catch {
      throw LineFailure.payload(type: name, error: error)
    }
    self = .entry(sequence: sequence, type: name, updater: updater, cause: cause, time: time)
  }
}

/// The sequence numbers a log may hold.
///
/// Entries count from 1, a checkpoint names the entry before it (0 before any). The largest is one below `Int.max`, so that a recorder continuing a log can
/// always number its next entry, and reaching the end is an error, not an overflow.
enum LogSequence {
  /// The valid `seq` of an entry or unrecorded marker.
  static let entries = 1...(Int.max - 1)
  /// The valid `checkpoint` number.
  static let checkpoints = 0...(Int.max - 1)

  static func describe(_ range: ClosedRange<Int>) -> String {
    "\(range.lowerBound)...\(range.upperBound)"
  }
}

/// Why a line failed to decode, before the line number is known.
enum LineFailure: Error {
  case malformed(String)
  case unknownType(String)
  case payload(type: String, error: any Error)

  /// The error for this failure on line `line`, reading any `DecodingError` for its path.
  static func error(for error: any Error, line: Int) -> ActionLogError {
    switch error {
    case LineFailure.malformed(let reason):
      return .malformedLine(line: line, reason: reason)
    case LineFailure.unknownType(let name):
      return .unknownType(line: line, name: name)
    case LineFailure.payload(let type, let underlying):
      let (path, reason) = describe(underlying)
      return .undecodablePayload(line: line, type: type, path: path, reason: reason)
    default:
      let (path, reason) = describe(error)
      return .malformedLine(line: line, reason: path == "line" ? reason : "\(path): \(reason)")
    }
  }

  /// The coding path (`payload.items[2].title`) and the reason of a decoding error.
  static func describe(_ error: any Error) -> (path: String, reason: String) {
    guard let decodingError = error as? DecodingError else {
      return ("payload", String(describing: error))
    }
    switch decodingError {
    case .keyNotFound(let key, let context):
      return (path(context.codingPath), "missing key \"\(key.stringValue)\"")
    case .typeMismatch(let type, let context):
      return (path(context.codingPath), "expected \(type): \(context.debugDescription)")
    case .valueNotFound(let type, let context):
      return (path(context.codingPath), "expected \(type), found null")
    case .dataCorrupted(let context):
      let underlying = (context.underlyingError as? NSError)?.localizedDescription
      return (
        path(context.codingPath),
        underlying.map { "invalid JSON: \($0)" } ?? context.debugDescription
      )
    @unknown default:
      return ("line", String(describing: decodingError))
    }
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    guard !keys.isEmpty else { return "line" }
    var text = ""
    for key in keys {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : "." + key.stringValue
      }
    }
    return text
  }
}
