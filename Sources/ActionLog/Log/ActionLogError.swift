/// Why an action log could not be read, replayed or written.
///
/// Every error about a file names its line (1 is the header). The description says what was
/// wrong, where, and when it helps, how to fix it.
public enum ActionLogError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be read or written.
  case fileError(path: String, reason: String)
  /// The log is empty: not even a header.
  case missingHeader
  /// The first line is not a valid header (`{"format":"statestore-action-log","version":1}`).
  case invalidHeader(line: Int, reason: String)
  /// The header's version is newer than this library reads.
  case unsupportedVersion(line: Int, version: Int)
  /// A line is not a JSON object of a known shape.
  case malformedLine(line: Int, reason: String)
  /// An entry names a type that is not registered.
  case unknownType(line: Int, name: String)
  /// An entry names a scope (`"scope"`) that the registry has not registered.
  case unknownScope(line: Int, scope: String)
  /// An entry's payload does not decode as its registered type.
  case undecodablePayload(line: Int, type: String, path: String, reason: String)
  /// An entry's sequence number is not greater than the one before it.
  case outOfOrder(line: Int, sequence: Int, previous: Int)
  /// The recorder could not record this entry; replaying past it cannot reproduce the session.
  case unrecordedEntry(line: Int, sequence: Int, type: String, reason: String)
  /// The last line is incomplete and has no newline: a write was cut short, by a crash perhaps.
  case tornLastLine(line: Int)
  /// A checkpoint's state does not decode as the state type.
  case undecodableCheckpoint(line: Int, path: String, reason: String)
  /// The log has checkpoints but the state type is not `Decodable & Equatable`.
  case checkpointsNeedCodableState(line: Int, stateType: String)
  /// A replay was asked to start from the log's first checkpoint, but no checkpoint comes before
  /// the first entry (`line` is that entry's line, or the last line of a log without entries).
  case noInitialCheckpoint(line: Int)
  /// The replayed state differs from the one recorded in a checkpoint.
  case diverged(ReplayDivergence)
  /// The recorder met an updater whose type is not registered.
  case unregisteredUpdater(type: String)
  /// An updater or the state failed to encode.
  case encodingFailed(type: String, reason: String)
  /// Two registrations conflict: one name for two types.
  case conflictingRegistration(name: String, types: [String])
  /// The recorder was asked to write checkpoints of a state that is not `Encodable`.
  case stateNotEncodable(stateType: String)
  /// An existing log records another state type than the store's.
  case stateTypeMismatch(logged: String, store: String)
  /// The writer or recorder was used after it was stopped.
  case stopped

  /// The line the error is about, if it is about one.
  public var line: Int? {
    switch self {
    case .invalidHeader(let line, _), .unsupportedVersion(let line, _),
      .malformedLine(let line, _), .unknownType(let line, _), .unknownScope(let line, _),
      .undecodablePayload(let line, _, _, _), .outOfOrder(let line, _, _),
      .unrecordedEntry(let line, _, _, _), .tornLastLine(let line),
      .undecodableCheckpoint(let line, _, _), .checkpointsNeedCodableState(let line, _),
      .noInitialCheckpoint(let line):
      return line
    case .diverged(let divergence):
      return divergence.checkpointLine
    default:
      return nil
    }
  }

  /// A readable account of the error.
  public var description: String {
    switch self {
    case .fileError(let path, let reason):
      return "action log \(path): \(reason)"
    case .missingHeader:
      return "action log: empty file, expected a header line "
        + #"{"format":"statestore-action-log","version":1}"#
    case .invalidHeader(let line, let reason):
      return "action log line \(line): not a valid header: \(reason)"
    case .unsupportedVersion(let line, let version):
      return "action log line \(line): version \(version) is not supported "
        + "(this library reads versions up to \(ActionLogFormat.version))"
    case .malformedLine(let line, let reason):
      return "action log line \(line): malformed line: \(reason)"
    case .unknownType(let line, let name):
      return "action log line \(line): unknown type \"\(name)\"; register it with "
        + "registry.register(\(name).self)"
    case .unknownScope(let line, let scope):
      return "action log line \(line): unknown scope \"\(scope)\"; register it with "
        + "registry.scope(\"\(scope)\", state: \\.\(scope))"
    case .undecodablePayload(let line, let type, let path, let reason):
      return "action log line \(line): payload of \(type) does not decode at \(path): \(reason)"
    case .outOfOrder(let line, let sequence, let previous):
      return "action log line \(line): seq \(sequence) does not follow seq \(previous)"
    case .unrecordedEntry(let line, let sequence, let type, let reason):
      return "action log line \(line): entry \(sequence) (\(type)) was not recorded: \(reason)"
    case .tornLastLine(let line):
      return "action log line \(line): the last line is incomplete (no newline, invalid JSON), "
        + "as a crash while writing leaves it; replay leniently to keep the entries before it"
    case .undecodableCheckpoint(let line, let path, let reason):
      return "action log line \(line): checkpoint state does not decode at \(path): \(reason)"
    case .checkpointsNeedCodableState(let line, let stateType):
      return "action log line \(line): the log has checkpoints but \(stateType) is not "
        + "Decodable & Equatable; make it so, or replay with checkpoints: .ignore"
    case .noInitialCheckpoint(let line):
      return "action log line \(line): no checkpoint comes before the first entry, so the log "
        + "does not say which state it started from; replay it from an initialState, or record "
        + "with a checkpointInterval (the recorder then writes the state when recording starts)"
    case .diverged(let divergence):
      return divergence.description
    case .unregisteredUpdater(let type):
      return "action recorder: \(type) is not registered; register it with "
        + "registry.register(\(type).self); its entry is marked unrecorded"
    case .encodingFailed(let type, let reason):
      return "action recorder: \(type) failed to encode: \(reason)"
    case .conflictingRegistration(let name, let types):
      return "action log registry: the name \"\(name)\" is registered for "
        + types.joined(separator: " and ") + "; pass distinct names"
    case .stateNotEncodable(let stateType):
      return "action recorder: checkpoints need an Encodable state, and \(stateType) is not"
    case .stateTypeMismatch(let logged, let store):
      return "action recorder: the existing log records \(logged), not \(store)"
    case .stopped:
      return "action recorder: already stopped"
    }
  }
}
