/// Why the store on disk could not be read or written.
enum StorageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A file holds something the app cannot read; nothing was changed.
  ///
  /// `line` is the 1-based line number, when the damage is in one line.
  case damaged(path: String, line: Int?, reason: String)
  /// A system call failed, with its `errno` text; nothing was changed.
  case systemCall(operation: String, path: String, reason: String)
  /// Saving a change failed (`cause`), and so did cutting the journal back to what it held
  /// before (`rollback`): the store holds all of the change or none of it, and cannot tell
  /// which. Its description says only what failed; what to do next is the caller's to say.
  case uncertain(cause: String, rollback: String)

  /// A message naming the file, the line and what is wrong.
  var description: String {
    switch self {
    case .damaged(let path, let line, let reason):
      let place = line.map { "\(path):\($0)" } ?? path
      return "damaged store: \(place): \(reason). Nothing was changed; "
        + "move the damaged file aside or restore it from a backup."
    case .systemCall(let operation, let path, let reason):
      return "cannot \(operation) \(path): \(reason). Nothing was changed."
    case .uncertain(let cause, let rollback):
      return "\(cause), and cutting the journal back failed too (\(rollback))"
    }
  }

  /// The message of a failed call, without the sentence about what changed.
  var summary: String {
    switch self {
    case .systemCall(let operation, let path, let reason):
      return "cannot \(operation) \(path): \(reason)"
    default:
      return description
    }
  }

  /// The error for a change whose rollback failed with `rollback` after this error.
  func uncertain(rollback: StorageError) -> StorageError {
    .uncertain(cause: summary, rollback: rollback.summary)
  }
}
