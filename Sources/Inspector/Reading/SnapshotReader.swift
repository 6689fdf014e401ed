import ActionLog
import Foundation
import StatePersistence

/// What a snapshot holds: a `SnapshotFile`'s file, or a journal's `snapshot.json`.
package struct SnapshotContents: Equatable, Sendable {
  /// The schema version of the value, as the app that saved it numbers them.
  package var schema: Int
  /// The journal entry the value includes; 0 for a `SnapshotFile`.
  package var sequence: Int
  /// The value, as saved.
  package var value: JSONValue

  /// The snapshot as the checkpoint after the entry it includes.
  var checkpoint: LogRecord { .checkpoint(sequence: sequence, line: 2, state: value) }
}

/// Reads a file that `StatePersistence` saves whole, by the file's own rules
/// (`SnapshotCodec`): a header, the value on one line, and a checksum of both.
enum SnapshotReader {
  /// The snapshot format version this inspector reads.
  static let formatVersion = 1

  /// Whether the file at `path` starts with a snapshot header; only its first line is read.
  ///
  /// - Complexity: O(length of the first line), at most 64 KiB read.
  static func isSnapshot(path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    guard let start = try? handle.read(upToCount: 64 * 1024) else { return false }
    let firstLine = start.prefix { $0 != 0x0A }
    return SnapshotCodec.formatVersion(ofHeader: firstLine) != nil
  }

  /// Reads the snapshot `bytes`, checking its header and checksum.
  ///
  /// - Parameter file: The name damage is reported under; `nil` for the file inspected itself.
  /// - Throws: ``LogDamage`` naming the line and what is wrong with it: a checksum that does
  ///   not match, a value that is not JSON, a snapshot format newer than this inspector reads.
  /// - Complexity: O(bytes).
  static func read(_ bytes: [UInt8], file: String?) throws(LogDamage) -> SnapshotContents {
    if let newer = newerVersion(bytes) { throw LogDamage(file: file, line: 1, reason: newer) }
    do {
      let (header, valueLine) = try SnapshotCodec.validated(bytes, path: file ?? "snapshot")
      do {
        let value = try JSONParser.parse(bytes, in: valueLine)
        return SnapshotContents(schema: header.schema, sequence: header.seq, value: value)
      } catch {
        throw LogDamage(file: file, line: 2, reason: "not JSON: \(error)")
      }
    } catch let error as LogDamage {
      throw error
    } catch PersistenceError.damaged(_, let line, let reason) {
      throw LogDamage(file: file, line: line ?? 1, reason: reason)
    } catch {
      throw LogDamage(file: file, line: 1, reason: "\(error)")
    }
  }

  /// Why the snapshot `bytes` cannot be read when a newer version of `StatePersistence` wrote
  /// them; `nil` otherwise.
  ///
  /// - Complexity: O(length of the first line).
  static func newerVersion(_ bytes: [UInt8]) -> String? {
    let firstLine = bytes.prefix { $0 != 0x0A }
    guard let version = SnapshotCodec.formatVersion(ofHeader: firstLine), version > formatVersion
    else { return nil }
    return "written by a newer version of StatePersistence: snapshot format version \(version), "
      + "this inspector reads version \(formatVersion)"
  }

  /// What the timeline shows of a snapshot: its kind, schema version and value, as text or as
  /// one JSON object.
  ///
  /// - Complexity: O(size of the value).
  static func description(_ snapshot: SnapshotContents, json: Bool) -> String {
    if json {
      return JSONValue.object(
        JSONObject([
          ("snapshot", .string("statepersistence-snapshot")),
          ("schema", .number(String(snapshot.schema))),
          ("seq", .number(String(snapshot.sequence))),
          ("value", snapshot.value),
        ])
      ).text() + "\n"
    }
    let entry = snapshot.sequence > 0 ? ", including journal entry \(snapshot.sequence)" : ""
    return "StatePersistence snapshot, schema version \(snapshot.schema)\(entry)\n"
      + snapshot.value.indentedText + "\n"
  }
}
