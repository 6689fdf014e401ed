import ActionLog
import Foundation

/// Every ``SchemaMigration`` an app registers: how files of older schema versions are read.
///
/// Give them to ``JournalOptions/migrations`` (a journaled store's snapshot and segments) or
/// ``SnapshotFile/Options-swift.struct/migrations`` (a snapshot file), with the current
/// ``JournalOptions/schemaVersion``; an old action log goes through ``migrateLog(_:file:to:)``
/// before it is replayed:
///
/// ```swift
/// let migrations = Migrations([
///   SchemaMigration(from: 1).renameUpdater(from: "AddNote", to: "AppendNote"),
///   SchemaMigration(from: 2).migrateSnapshot { state in state["archive"] = .array([]) },
/// ])
/// let options = JournalOptions(schemaVersion: 3, migrations: migrations)
/// ```
///
/// A file of version `v` goes through every step from `v` up to the current version minus 1,
/// in version order (steps of the same version in the order given); a version without a step
/// changes nothing. A step from the current version or later is never applied. A file of a
/// newer version than the current one is refused with
/// ``PersistenceError/newerSchema(file:found:supported:)``, migrations or not.
public struct Migrations: Sendable {
  /// The steps, in the order they apply: by version, then as given.
  public let steps: [SchemaMigration]

  /// Collects `steps`; they are sorted by version, keeping the given order within a version.
  ///
  /// - Complexity: O(n log n) in the number of steps.
  public init(_ steps: [SchemaMigration] = []) {
    self.steps = steps.enumerated().sorted {
      ($0.element.version, $0.offset) < ($1.element.version, $1.offset)
    }
    .map(\.element)
  }

  /// Rewrites an action log of an older schema version into the shape of `schemaVersion`, for
  /// `ActionReplayer` to replay with today's registry.
  ///
  /// The version is the header's `schema` key, 1 when it has none (a log an `ActionRecorder`
  /// wrote). Every entry line goes through the payload and rename steps, every checkpoint's
  /// state through the snapshot steps; the header gets the new version. Line numbers stay the
  /// same, and a line that is not JSON is kept as it is, for the replayer to report.
  ///
  /// ```swift
  /// let old = try Data(contentsOf: logURL)
  /// let log = try migrations.migrateLog(old, file: logURL.path, to: 2)
  /// let state = try ActionReplayer(registry: registry).replay(log, initialState: NotesState())
  /// ```
  ///
  /// - Parameters:
  ///   - data: The log.
  ///   - file: The log's name in errors.
  ///   - schemaVersion: The current schema version.
  /// - Throws: ``PersistenceError/newerSchema(file:found:supported:)`` for a log of a newer
  ///   version, ``PersistenceError/damaged(file:line:reason:)`` for a header that is not JSON or
  ///   a step that throws, naming the line.
  /// - Complexity: O(size of the log), plus the steps' own cost.
  public func migrateLog(_ data: Data, file: String = "the action log", to schemaVersion: Int)
    throws(PersistenceError) -> Data
  {
    let bytes = [UInt8](data)
    let (lines, tornStart) = JSONLines.split(bytes)
    guard let headerRange = lines.first,
      case .object(var header) = try? JSONParser.parse(bytes, in: headerRange)
    else {
      throw .damaged(file: file, line: 1, reason: "the first line is not a JSON object")
    }
    let found = header["schema"]?.intValue ?? 1
    guard found <= schemaVersion else {
      throw .newerSchema(file: file, found: found, supported: schemaVersion)
    }
    let applying = operations(from: found, to: schemaVersion)
    guard !applying.isEmpty || found != schemaVersion else { return data }
    header["schema"] = .number(String(schemaVersion))
    var output = Array(JSONValue.object(header).text().utf8)
    output.append(0x0A)
    for (index, range) in lines.enumerated().dropFirst() {
      output += try migrateLine(bytes[range], through: applying, file: file, line: index + 1)
      output.append(0x0A)
    }
    if let tornStart { output += bytes[tornStart...] }
    return Data(output)
  }

  /// One step's operation, with the version it reads.
  typealias Applying = [(version: Int, operation: SchemaMigration.Operation)]

  /// The operations that take JSON of schema `version` to schema `target`, in order.
  func operations(from version: Int, to target: Int) -> Applying {
    steps.filter { $0.version >= version && $0.version < target }.flatMap { step in
      step.operations.map { (step.version, $0) }
    }
  }

  /// An entry or checkpoint line, migrated; a line that is no JSON object is returned as it
  /// is.
  ///
  /// - Complexity: O(line), plus the operations' own cost.
  func migrateLine(
    _ line: ArraySlice<UInt8>, through applying: Applying, file: String, line number: Int
  ) throws(PersistenceError) -> [UInt8] {
    guard !applying.isEmpty, case .object(var object)? = try? JSONParser.parse(line) else {
      return Array(line)
    }
    if object["checkpoint"] != nil {
      guard var state = object["state"] else { return Array(line) }
      try migrateState(&state, through: applying, file: file, line: number)
      object["state"] = state
      return Array(JSONValue.object(object).text().utf8)
    }
    guard case .string(var type)? = object["type"] else { return Array(line) }
    for (version, operation) in applying {
      switch operation {
      case .renameUpdater(let from, let to) where from == type:
        type = to
        object["type"] = .string(to)
      case .migratePayload(let name, let transform) where name == type:
        var payload = object["payload"] ?? .null
        do {
          try transform(&payload)
        } catch {
          throw .damaged(
            file: file, line: number,
            reason: "migrating the payload of \(type) from schema version \(version) failed: "
              + "\(error)")
        }
        object["payload"] = payload
      default:
        continue
      }
    }
    return Array(JSONValue.object(object).text().utf8)
  }

  /// Runs the snapshot operations of `applying` on `state`.
  func migrateState(
    _ state: inout JSONValue, through applying: Applying, file: String, line: Int
  ) throws(PersistenceError) {
    for (version, operation) in applying {
      guard case .migrateSnapshot(let transform) = operation else { continue }
      do {
        try transform(&state)
      } catch {
        throw .damaged(
          file: file, line: line,
          reason: "migrating the state from schema version \(version) failed: \(error)")
      }
    }
  }

  /// A snapshot's value line of schema `version`, migrated to `target`; the line itself when no
  /// snapshot operation applies.
  ///
  /// - Complexity: O(line), plus the operations' own cost.
  func migrateSnapshotValue(
    _ line: ArraySlice<UInt8>, from version: Int, to target: Int, file: String, line number: Int
  ) throws(PersistenceError) -> ArraySlice<UInt8> {
    let applying = operations(from: version, to: target).filter {
      if case .migrateSnapshot = $0.operation { return true }
      return false
    }
    guard !applying.isEmpty else { return line }
    var state: JSONValue
    do {
      state = try JSONParser.parse(line)
    } catch {
      throw .damaged(file: file, line: number, reason: "the value is not JSON (\(error))")
    }
    try migrateState(&state, through: applying, file: file, line: number)
    return Array(state.text().utf8)[...]
  }
}
