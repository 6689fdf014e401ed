import Foundation
import StateStore

/// Turns updaters and states into log lines.
///
/// Only the updater goes through `JSONEncoder`; the envelope (`seq`, `type`, `cause`) is written
/// as text, so the cost of an entry depends on the updater alone, never on the size of the state.
package struct LineEncoder<S: State> {
  private let registry: ActionLogRegistry<S>
  /// The registry's tables when encoding began, so the hot path takes no lock.
  private var codecs: [ObjectIdentifier: UpdaterCodec<S>]
  private let encoder: JSONEncoder

  package init(registry: ActionLogRegistry<S>) {
    self.registry = registry
    self.codecs = registry.snapshot()
    let encoder = JSONEncoder()
    // Sorted keys make a recorded log the same bytes every time: fixtures diff cleanly.
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    self.encoder = encoder
  }

  /// The entry line for `updater`, or, if it cannot be encoded, a line marking it unrecorded
  /// together with the reason; `spareCapacity` more bytes are reserved for what the caller
  /// adds to the line (a diff), so that adding them does not copy it.
  package mutating func entry(
    _ updater: any StateUpdater<S>, sequence: Int, cause: DispatchCause?, time: Date?,
    site: DispatchSite? = nil, writesCauseChain: Bool = true, spareCapacity: Int = 0,
    effect: Int? = nil
  ) -> (line: Data, failure: ActionLogError?) {
    let type = Swift.type(of: updater)
    let typeID = ObjectIdentifier(type)
    var codec = codecs[typeID]
    if codec == nil, let late = registry.codec(for: type) {
      codecs[typeID] = late
      codec = late
    }
    var prefix = "{\"seq\":\(sequence),"
    if codec == nil, let scoped = updater as? any ScopedUpdaterProtocol {
      return scopedEntry(
        scoped, prefix: prefix, cause: cause, time: time, site: site,
        writesCauseChain: writesCauseChain, effect: effect)
    }
    guard let codec else {
      let name = String(reflecting: type)
      prefix += "\"unrecorded\":\(JSONText.quoted(name)),\"reason\":\"not registered\"}\n"
      return (Data(prefix.utf8), .unregisteredUpdater(type: name))
    }
    let payload: Data
    do {
      payload = try codec.encode(updater, encoder)
    } catch {
      let reason = String(describing: error)
      prefix +=
        "\"unrecorded\":\(codec.quotedName),\"reason\":\(JSONText.quoted("encoding failed: \(reason)"))}\n"
      return (Data(prefix.utf8), .encodingFailed(type: codec.typeName, reason: reason))
    }
    prefix += "\"type\":" + codec.quotedName
    Self.appendOrigin(to: &prefix, cause: cause, site: site, chain: writesCauseChain)
    if let effect { prefix += ",\"effect\":\(effect)" }
    if let time { prefix += ",\"time\":" + Self.seconds(time) }
    prefix += ",\"payload\":"
    var line = Data(capacity: prefix.utf8.count + payload.count + 2 + spareCapacity)
    line.append(contentsOf: prefix.utf8)
    line.append(payload)
    line.append(contentsOf: "}\n".utf8)
    return (line, nil)
  }

  /// The entry line of an updater dispatched through a scope: its `scope` path, then the
  /// feature's registered name and payload.
  private func scopedEntry(
    _ scoped: any ScopedUpdaterProtocol, prefix: String, cause: DispatchCause?, time: Date?,
    site: DispatchSite?, writesCauseChain: Bool, effect: Int?
  ) -> (line: Data, failure: ActionLogError?) {
    var prefix = prefix
    let entry: ScopedEntry
    let payload: Data
    do throws(ActionLogError) {
      entry = try registry.scopedCodec(for: scoped)
    } catch {
      let name = String(reflecting: type(of: scoped.innermostUpdater))
      prefix += "\"unrecorded\":\(JSONText.quoted(name)),\"reason\":\"not registered\"}\n"
      return (Data(prefix.utf8), error)
    }
    do {
      payload = try entry.encode(entry.updater, encoder)
    } catch {
      let reason = String(describing: error)
      prefix +=
        "\"unrecorded\":\(entry.quotedName),\"reason\":\(JSONText.quoted("encoding failed: \(reason)"))}\n"
      return (Data(prefix.utf8), .encodingFailed(type: entry.quotedName, reason: reason))
    }
    prefix += "\"scope\":" + JSONText.quoted(entry.path.joined(separator: "/"))
    prefix += ",\"type\":" + entry.quotedName
    Self.appendOrigin(to: &prefix, cause: cause, site: site, chain: writesCauseChain)
    if let effect { prefix += ",\"effect\":\(effect)" }
    if let time { prefix += ",\"time\":" + Self.seconds(time) }
    prefix += ",\"payload\":"
    var line = Data(prefix.utf8)
    line.append(payload)
    line.append(contentsOf: "}\n".utf8)
    return (line, nil)
  }

  /// The checkpoint line recording `state` after entry `sequence`.
  ///
  /// - Complexity: O(size of the state).
  package func checkpoint(_ state: S, sequence: Int) throws(ActionLogError) -> Data {
    guard let encodable = state as? any Encodable else {
      throw .stateNotEncodable(stateType: String(reflecting: S.self))
    }
    let encoded: Data
    do {
      encoded = try encoder.encode(encodable)
    } catch {
      throw .encodingFailed(type: String(reflecting: S.self), reason: String(describing: error))
    }
    var line = Data("{\"checkpoint\":\(sequence),\"state\":".utf8)
    line.append(encoded)
    line.append(contentsOf: "}\n".utf8)
    return line
  }

  /// Appends where the updater came from: its `cause`, its `site` and its cause's chain.
  ///
  /// The cause is its name, as every version wrote it; then, when known, the `site` of the
  /// dispatch, the cause's own site (`causeSite`) and the causes above it (`causeParents`,
  /// nearest first), the last two only with `chain`. Readers that predate them skip the keys.
  private static func appendOrigin(
    to prefix: inout String, cause: DispatchCause?, site: DispatchSite?, chain: Bool
  ) {
    if let cause {
      prefix += ",\"cause\":" + JSONText.quoted(cause.name)
      if chain, let causeSite = cause.site {
        prefix += ",\"causeSite\":" + JSONText.quoted(causeSite.description)
      }
      if chain, cause.parent != nil {
        let parents = cause.chain.dropFirst().map { parent in
          "{\"name\":" + JSONText.quoted(parent.name)
            + (parent.site.map { ",\"site\":" + JSONText.quoted($0.description) } ?? "") + "}"
        }
        prefix += ",\"causeParents\":[" + parents.joined(separator: ",") + "]"
      }
    }
    if let site { prefix += ",\"site\":" + JSONText.quoted(site.description) }
  }

  /// A number of seconds as JSON, with millisecond precision.
  private static func seconds(_ date: Date) -> String {
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
