import ActionLog
import Foundation

/// A whole value in one file, with its schema version and a checksum.
///
/// ```
/// {"format":"statepersistence-snapshot","version":1,"schema":1,"seq":500}
/// {…the value, as one line of JSON…}
/// {"checksum":"0123456789abcdef"}
/// ```
///
/// `seq` is the journal entry the state includes (0 for a ``SnapshotFile``). The checksum is the
/// 64-bit FNV-1a hash of every byte before its line, so a flipped bit is reported as damage, not
/// read as a different value. The file is always replaced whole, so it is never torn.
package enum SnapshotCodec {
  static let format = "statepersistence-snapshot"

  /// What a snapshot's first line holds.
  package struct Header: Codable {
    var format: String
    var version: Int
    /// The schema version of the value.
    package var schema: Int
    /// The journal entry the value includes.
    package var seq: Int
  }

  /// The bytes of a snapshot of `value`.
  ///
  /// - Complexity: O(size of the value's encoding).
  package static func encode(_ value: some Encodable, schema: Int, seq: Int)
    throws(PersistenceError)
    -> [UInt8]
  {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var bytes: [UInt8]
    do {
      bytes = Array(
        try encoder.encode(Header(format: format, version: 1, schema: schema, seq: seq)))
      bytes.append(0x0A)
      bytes += try encoder.encode(value)
    } catch {
      throw .encodingFailed(
        type: String(reflecting: type(of: value)), reason: String(describing: error))
    }
    bytes.append(0x0A)
    bytes += Array("{\"checksum\":\"\(hex(fnv1a(bytes[...])))\"}\n".utf8)
    return bytes
  }

  /// Decodes a snapshot written by ``encode(_:schema:seq:)``, through `migrations` when it is of
  /// an older schema version.
  ///
  /// - Throws: ``PersistenceError/damaged(file:line:reason:)`` naming `path` and the line, or
  ///   ``PersistenceError/newerSchema(file:found:supported:)``.
  /// - Complexity: O(bytes).
  static func decode<Value: Decodable>(
    _ type: Value.Type, from bytes: [UInt8], path: String, schema: Int,
    migrations: Migrations = Migrations()
  ) throws(PersistenceError) -> (value: Value, header: Header) {
    let (header, valueLine) = try validated(bytes, path: path)
    guard header.schema <= schema else {
      throw .newerSchema(file: path, found: header.schema, supported: schema)
    }
    let value = try migrations.migrateSnapshotValue(
      bytes[valueLine], from: header.schema, to: schema, file: path, line: 2)
    do {
      if let reading = Value.self as? any SnapshotDecodable.Type,
        let decoded = try reading.init(snapshotJSON: value[...]) as? Value
      {
        return (decoded, header)
      }
      return (try JSONDecoder().decode(Value.self, from: Data(value)), header)
    } catch {
      throw .damaged(
        file: path, line: 2,
        reason: "the value does not decode (\(LineFailure.summary(of: error)))")
    }
  }

  /// Checks a snapshot's lines, header and checksum, without decoding its value.
  ///
  /// - Returns: The header, and where the value's line (line 2, newline excluded) lies.
  /// - Throws: ``PersistenceError/damaged(file:line:reason:)`` naming `path` and the line.
  /// - Complexity: O(bytes).
  package static func validated(
    _ bytes: [UInt8], path: String
  ) throws(PersistenceError) -> (header: Header, value: Range<Int>) {
    func damaged(_ line: Int?, _ reason: String) -> PersistenceError {
      .damaged(file: path, line: line, reason: reason)
    }
    let (lines, torn) = JSONLines.split(bytes)
    // A later release's snapshot is said to be one, whatever else changed in its format, as a
    // journal segment's newer version is: it is not damage, and the later release reads it.
    if let first = lines.first, let version = formatVersion(ofHeader: bytes[first]), version > 1 {
      throw damaged(1, "version \(version) is not supported (this library reads versions up to 1)")
    }
    guard torn == nil, lines.count == 3 else {
      throw damaged(nil, "a snapshot has 3 complete lines, this file has \(lines.count)")
    }
    let decoder = JSONDecoder()
    let header: Header
    do {
      header = try decoder.decode(Header.self, from: Data(bytes[lines[0]]))
    } catch {
      throw damaged(1, "not a snapshot header (\(LineFailure.summary(of: error)))")
    }
    guard header.format == format, header.version == 1, header.seq >= 0 else {
      throw damaged(1, "not a version 1 \(format) header")
    }
    let expected = "{\"checksum\":\"\(hex(fnv1a(bytes[..<lines[2].lowerBound])))\"}"
    guard bytes[lines[2]].elementsEqual(expected.utf8) else {
      throw damaged(3, "the checksum does not match the contents")
    }
    return (header, lines[1])
  }

  /// The format version that `line`, a file's first line (newline excluded), claims for a
  /// snapshot, or `nil` when it is no snapshot header: how a reader tells a snapshot from other
  /// files, and one written by a newer version from a damaged one.
  ///
  /// - Complexity: O(length of the line).
  package static func formatVersion(ofHeader line: some Collection<UInt8>) -> Int? {
    guard let probe = try? JSONDecoder().decode(HeaderProbe.self, from: Data(line)),
      probe.format == format
    else { return nil }
    return probe.version
  }

  /// The keys of a header that every version keeps.
  private struct HeaderProbe: Decodable {
    var format: String
    var version: Int
  }

  /// The 64-bit FNV-1a hash of `bytes`.
  ///
  /// - Complexity: O(bytes).
  static func fnv1a(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return hash
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
