import Foundation
import StateStore

/// The recorder's diff mode: after each entry, the state is encoded, compared with the encoding
/// before it, and the entry line gains `"diff"`, the ``JSONChange``s between the two.
///
/// The first encoding is the checkpoint the recorder writes when it starts, so every diff has a
/// base in the log. When the state cannot be encoded, the entry is written without a diff and
/// the next state that encodes is written whole, as a checkpoint, so that readers can pick up
/// the chain again.
struct DiffRecording<S: State> {
  private let encoder: JSONEncoder
  /// The encoded state after the last line written, or `nil` when it could not be encoded.
  private var previous: JSONValue?

  init() {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    self.encoder = encoder
  }

  /// Takes the state of a checkpoint line, `{"checkpoint":n,"state":…}`, as the base of the
  /// next diff.
  ///
  /// - Complexity: O(size of the line).
  mutating func reset(toCheckpoint line: Data) {
    previous = try? JSONParser.parse(line)["state"]
  }

  /// Appends to `line`, an entry line or unrecorded marker ending in `}\n`, the diff from the
  /// previous state to `state`.
  ///
  /// - Returns: `true` when `line` got no diff because the state before it was unknown, and a
  ///   checkpoint should follow it; the error when `state` could not be encoded.
  /// - Complexity: O(size of the state).
  mutating func appendDiff(
    to line: inout Data, after state: S
  ) -> (needsCheckpoint: Bool, failure: ActionLogError?) {
    let current: JSONValue
    do {
      guard let encodable = state as? any Encodable else {
        throw ActionLogError.stateNotEncodable(stateType: String(reflecting: S.self))
      }
      current = try JSONParser.parse(try encoder.encode(encodable))
    } catch let error as ActionLogError {
      previous = nil
      return (false, error)
    } catch {
      previous = nil
      return (
        false,
        .encodingFailed(type: String(reflecting: S.self), reason: String(describing: error))
      )
    }
    defer { previous = current }
    guard let previous, line.count >= 2, line.last == 0x0A else { return (true, nil) }
    line.removeLast(2)
    line.append(contentsOf: ",\"diff\":".utf8)
    line.append(
      contentsOf: JSONChange.json(JSONChange.changes(from: previous, to: current)).text().utf8)
    line.append(contentsOf: "}\n".utf8)
    return (false, nil)
  }
}
