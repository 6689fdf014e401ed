#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Why persisted state could not be read or written.
///
/// Every case names the file it is about; ``description`` says what went wrong, where, and what
/// was kept.
public enum PersistenceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A system call failed with the `errno` `code` (`EIO`, `ENOSPC`, …) on `path`.
  case systemCall(operation: String, path: String, code: Int32)
  /// A file holds something that cannot be read; nothing was written over it.
  ///
  /// `line` is the 1-based line at fault, when the damage is in one line.
  case damaged(file: String, line: Int?, reason: String)
  /// The file was written by a newer version of the app, with a schema version this one does
  /// not know; it is refused, never misread.
  case newerSchema(file: String, found: Int, supported: Int)
  /// Another process (or another open in this one) is writing to the directory.
  ///
  /// No longer thrown: several stores may open one directory at once (see "Several processes"
  /// in <doc:KeepingStateOnDisk>). The case is kept so that existing `switch`es compile.
  case inUse(directory: String)
  /// An updater or a state failed to encode; `type` names it.
  case encodingFailed(type: String, reason: String)
  /// A write failed (`cause`) and so did cutting the file back to its durable length
  /// (`rollback`): the entries of that write may or may not be on disk, but any that are
  /// follow the durable prefix in order.
  case uncertain(cause: String, rollback: String)
  /// The persistence was closed, or stopped after a failure it cannot recover from.
  case closed(reason: String)

  /// A message naming the file and what is wrong.
  public var description: String {
    switch self {
    case .systemCall(let operation, let path, let code) where code == ELOOP:
      return "cannot \(operation) \(path): it is a symbolic link, and no link inside a store's "
        + "directory is followed; it was left as it is: to recover, replace the link with the "
        + "file it points to, or remove it"
    case .systemCall(let operation, let path, let code):
      return "cannot \(operation) \(path): \(String(cString: strerror(code)))"
    case .damaged(let file, let line, let reason):
      let place = line.map { "\(file):\($0)" } ?? file
      return "damaged file \(place): \(reason); it was left as it is: move it aside or restore "
        + "it from a backup, or open the directory read-only to recover the state before it"
    case .newerSchema(let file, let found, let supported):
      return "\(file) was written with schema version \(found), newer than the \(supported) this "
        + "app reads; open it with a newer version of the app"
    case .inUse(let directory):
      return "\(directory) is already open for writing by another process or store"
    case .encodingFailed(let type, let reason):
      return "cannot encode \(type): \(reason)"
    case .uncertain(let cause, let rollback):
      return "\(cause), and cutting the file back failed too (\(rollback)); the last entries "
        + "may or may not be saved"
    case .closed(let reason):
      return "persistence is closed: \(reason)"
    }
  }

  /// The error for a failed system call on `path`.
  static func failed(_ operation: String, _ path: String, _ failure: SystemCallFailure)
    -> PersistenceError
  {
    .systemCall(operation: operation, path: path, code: failure.code)
  }
}
