import ActionLog

/// The changes that read files written with one schema version in the shape of the next.
///
/// A migration is expressed as old JSON to new, so it needs none of the old Swift types:
///
/// ```swift
/// let fromVersion1 = SchemaMigration(from: 1)
///   .renameUpdater(from: "AddNote", to: "AppendNote")
///   .migratePayload(of: "AppendNote") { payload in
///     payload["title"] = payload["text"]
///     payload["text"] = nil
///   }
///   .migrateSnapshot { state in
///     state["fontSize"] = .number("13")
///   }
/// ```
///
/// The operations of a step apply in the order they were added, each to the JSON as the one
/// before left it: above, the payload migration names the updater by its new name. A journal
/// entry's `type` is matched whatever its `scope`. A snapshot migration rewrites the whole
/// state, as a ``JournaledStore``'s snapshot or a log's checkpoint holds it, or the value of a
/// ``SnapshotFile``.
///
/// Steps are collected in ``Migrations``; a file of version `v` goes through every step from `v`
/// up to the current schema version, in order.
public struct SchemaMigration: Sendable {
  /// A rewrite of a JSON value in place; an error it throws stops the reading, naming the file
  /// and the line.
  public typealias Transform = @Sendable (_ value: inout JSONValue) throws -> Void

  /// One change, as added.
  enum Operation: Sendable {
    case renameUpdater(from: String, to: String)
    case migratePayload(of: String, Transform)
    case migrateSnapshot(Transform)
  }

  /// The schema version this step reads; it leaves the JSON in the shape of `version + 1`.
  public let version: Int
  var operations: [Operation] = []

  /// Creates an empty step that reads files of schema `version`.
  public init(from version: Int) {
    self.version = version
  }

  /// Adds a rename: entries written under `oldName` read as `newName`.
  ///
  /// Register the updater under `newName` only; the registry no longer needs the old name.
  public func renameUpdater(from oldName: String, to newName: String) -> SchemaMigration {
    adding(.renameUpdater(from: oldName, to: newName))
  }

  /// Adds a rewrite of the payload of every entry of the updater named `name`.
  public func migratePayload(of name: String, _ transform: @escaping Transform)
    -> SchemaMigration
  {
    adding(.migratePayload(of: name, transform))
  }

  /// Adds a rewrite of the whole state, in snapshots and checkpoints.
  public func migrateSnapshot(_ transform: @escaping Transform) -> SchemaMigration {
    adding(.migrateSnapshot(transform))
  }

  private func adding(_ operation: Operation) -> SchemaMigration {
    var copy = self
    copy.operations.append(operation)
    return copy
  }
}
