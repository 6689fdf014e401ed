import Foundation
import StateStore

/// One line of a log after the header, decoded in a single pass.
///
/// The envelope and the payload are decoded together: the `type` key picks the registered
/// updater, which then decodes `payload` from the same container. Unknown keys are ignored.
package enum LogLine<S: State>: DecodableWithConfiguration {
  case entry(
    sequence: Int, type: String, updater: any StateUpdater<S>, cause: DispatchCause?,
    time: Date?, site: DispatchSite?, effect: Int?)
  case checkpoint(sequence: Int)
  case unrecorded(sequence: Int, type: String, reason: String)
  /// An effect line: a side effect's start, value or end, which a replay of updaters skips.
  case effect

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
    if !container.contains(.seq), container.contains(.effect) {
      self = .effect
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
    let cause = try Self.cause(in: container)
    let site = try container.decodeIfPresent(String.self, forKey: .site).flatMap(
      DispatchSite.init(logText:))
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
    let effect = try container.decodeIfPresent(Int.self, forKey: .effect)
    self = .entry(
      sequence: sequence, type: name, updater: updater, cause: cause, time: time, site: site,
      effect: effect)
  }

  /// One cause above an entry's, as `causeParents` lists it.
  private struct ParentCause: Decodable {
    let name: String
    let site: String?
  }

  /// The entry's cause: its name, and, when the log has them, its site and the causes above
  /// it, rebuilt into one chain.
  private static func cause(in container: KeyedDecodingContainer<LogKey>) throws
    -> DispatchCause?
  {
    guard let name = try container.decodeIfPresent(String.self, forKey: .cause) else {
      return nil
    }
    let site = try container.decodeIfPresent(String.self, forKey: .causeSite)
    let parents = try container.decodeIfPresent([ParentCause].self, forKey: .causeParents) ?? []
    let parent = parents.reversed().reduce(nil as DispatchCause?) { above, parent in
      DispatchCause(
        parent.name, site: parent.site.flatMap(DispatchSite.init(logText:)), parent: above)
    }
    return DispatchCause(name, site: site.flatMap(DispatchSite.init(logText:)), parent: parent)
  }
}

extension DispatchSite {
  /// Reads a site as a log writes it, `fileID:line`; `nil` when `text` has no line number.
  package init?(logText text: String) {
    guard let colon = text.lastIndex(of: ":"), let line = Int(text[text.index(after: colon)...])
    else { return nil }
    self.init(fileID: String(text[..<colon]), line: line)
  }
}
