import Foundation
import StateStore

/// The recorder's diff mode: after each entry, the state is encoded, compared with the encoding
/// before it, and the entry line gains `"diff"`, the ``JSONChange``s between the two.
///
/// The first encoding is the checkpoint the recorder writes when it starts, so every diff has a
/// base in the log. When the state cannot be encoded, the entry is written without a diff and
/// the next state that encodes is written whole, as a checkpoint, so that readers can pick up
/// the chain again.
///
/// The encoding before is kept as a tree, and each entry re-encodes only what may have changed
/// (see ``TreeEncoder``): the elements of a `TrackedArray` that its journal names, and
/// everything outside tracked arrays. The diff is the one the whole encodings would give.
struct DiffRecording<S: State> {
  /// The encoded state after the last line written, or `nil` when it could not be encoded.
  private var previous: JSONValue?
  /// What the encoding of ``previous`` left for the next one.
  private var memory = TreeEncoder.Memory()

  /// The bytes reserved for a diff's text: a diff of a few small changes fits.
  static var usualDiffLength: Int { 256 }

  /// The changes and the text of the last diff, kept so that their buffers serve the next one.
  private var changes: [JSONChange] = []
  private var text: [UInt8] = []

  /// Encodes a state, found once for the state's type: `nil` when it is not `Encodable`.
  private let encode: ((S, JSONValue, inout TreeEncoder.Memory) throws -> EncodedTree)?
  /// The format version of the log written: from 2, identified elements are named by their
  /// identifier.
  private let version: Int

  /// A diff mode for a log of format version `version`.
  init(version: Int = ActionLogFormat.version) {
    encode = (S.self as? any Encodable.Type).map { Self.encoder(for: $0) }
    self.version = version
  }

  /// The encoding of `S` as the `Encodable` type `E`, which it is: the state is cast, not boxed
  /// as `any Encodable`, at each entry.
  private static func encoder<E: Encodable>(
    for type: E.Type
  ) -> (S, JSONValue, inout TreeEncoder.Memory) throws -> EncodedTree {
    { state, previous, memory in
      guard let value = state as? E else {
        throw ActionLogError.stateNotEncodable(stateType: String(reflecting: S.self))
      }
      return try TreeEncoder.encode(value, previous: previous, memory: &memory)
    }
  }

  /// Takes the state of a checkpoint line, `{"checkpoint":n,"state":…}`, as the base of the
  /// next diff.
  ///
  /// - Complexity: O(size of the line).
  mutating func reset(toCheckpoint line: Data) {
    previous = try? JSONParser.parse(line)["state"]
    memory.memos = [:]
  }

  /// A checkpoint line, `{"checkpoint":sequence,"state":…}`, of the state the next diff starts
  /// from, or `nil` when it is unknown: what lets a reader follow this recorder's diffs again
  /// after lines of another writer.
  ///
  /// - Complexity: O(size of the state).
  func checkpoint(sequence: Int) -> Data? {
    guard let previous else { return nil }
    return Data("{\"checkpoint\":\(sequence),\"state\":\(previous.text())}\n".utf8)
  }

  /// Appends to `line`, an entry line or unrecorded marker ending in `}\n`, the diff from the
  /// previous state to `state`.
  ///
  /// - Returns: `true` when `line` got no diff because the state before it was unknown, and a
  ///   checkpoint should follow it; the error when `state` could not be encoded.
  /// - Complexity: O(size of the state outside tracked arrays + elements of tracked arrays
  ///   changed since the last entry).
  mutating func appendDiff(
    to line: inout Data, after state: S
  ) -> (needsCheckpoint: Bool, failure: ActionLogError?) {
    guard let encode else {
      previous = nil
      return (false, .stateNotEncodable(stateType: String(reflecting: S.self)))
    }
    // Without a base, the checkpoint that follows encodes the state and becomes the base.
    guard var tree = previous.take(), line.count >= 2, line.last == 0x0A else {
      return (true, nil)
    }
    let encoded: EncodedTree
    do {
      encoded = try encode(state, tree, &memory)
    } catch {
      memory.memos = [:]
      return (
        false,
        .encodingFailed(type: String(reflecting: S.self), reason: String(describing: error))
      )
    }
    encoded.collectChanges(from: tree, into: &changes, identifies: version >= 2)
    encoded.apply(to: &tree)
    previous = tree
    // The last diff's buffer, as bytes: a string's appends cost more bookkeeping.
    text.removeAll(keepingCapacity: true)
    text.write(",\"diff\":")
    JSONChange.appendText(of: changes, to: &text, version: version)
    // The buffer stays; the values go.
    changes.removeAll(keepingCapacity: true)
    text.write("}\n")
    // The text takes the place of the line's closing `}\n` in one change of the line, from
    // the array's own buffer (Data's generic append takes a byte at a time).
    let end = line.endIndex
    text.withUnsafeBytes { line.replaceSubrange((end - 2)..<end, with: $0) }
    return (false, nil)
  }
}
