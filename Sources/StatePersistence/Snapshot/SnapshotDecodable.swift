/// A state that reads its snapshot's value itself, faster than `JSONDecoder` does.
///
/// A snapshot keeps the value as the one line of JSON that the type's `Encodable` conformance
/// writes, so migrations (which edit it as JSON) and every reader see the same value; a
/// conforming type only changes how that line is read back when a store opens. Conform when
/// opening a large state costs more than an app can afford: `todo-cli` reads 10,000 todos with
/// the action log's JSON parser in a fraction of `JSONDecoder`'s time, which goes through
/// `Decoder`'s generic containers for every field.
///
/// ```swift
/// extension NotesState: SnapshotDecodable {
///   init(snapshotJSON: ArraySlice<UInt8>) throws {
///     self = try JSONDecoder().decode(NotesState.self, from: Data(snapshotJSON))  // or faster
///   }
/// }
/// ```
///
/// Anything the initializer throws is reported as damage of the snapshot's second line, and
/// nothing is written, as for a value `JSONDecoder` cannot decode.
public protocol SnapshotDecodable: Decodable {
  /// Decodes the value from its snapshot line: the JSON its `Encodable` conformance wrote,
  /// after any migration, without the newline.
  init(snapshotJSON: ArraySlice<UInt8>) throws
}
