import Foundation
import StateStore

/// One line of a log after the header, decoded in a single pass.
///
/// The envelope and the payload are decoded together: the `type` key picks the registered
/// updater, which then decodes `payload` from the same container. Unknown keys are ignored.
package enum LogLine<S: State>: DecodableWithConfiguration {
  case entry(sequence: Int, type: String, updater: any StateUpdater<S>, cause: String?, time: Date?)
  case checkpoint(sequence: Int)
  case unrecorded(sequence: Int, type: String, reason: String)

  package init(from decoder: any Decoder, configuration registry: ActionLogRegistry<S>) throws {
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
    let updater: any StateUpdater<S>
    if let scope = try container.decodeIfPresent(String.self, forKey: .scope) {
      updater = try registry.decodeScoped(
        ScopeSegment.parse(scope)[...], type: name, container: container)
    } else {
      guard let codec = registry.codec(named: name) else { throw LineFailure.unknownType(name) }
      guard container.contains(.payload) else {
        throw LineFailure.malformed("missing \"payload\"")
      }
      do {
        updater = try codec.decode(container)
      } catch {
        throw LineFailure.payload(type: name, error: error)
      }
    }
    self = .entry(sequence: sequence, type: name, updater: updater, cause: cause, time: time)
  }
}
