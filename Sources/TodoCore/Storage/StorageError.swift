/// Why the store on disk could not be read or written.
public enum StorageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A file holds something the app cannot read; nothing was changed.
  ///
  /// `line` is the 1-based line number, when the damage is in one line.
  case damaged(path: String, line: Int?, reason: String)
  /// A system call failed, with its `errno` text.
  case systemCall(operation: String, path: String, reason: String)

  /// A message naming the file, the line and what is wrong.
  public var description: String {
    switch self {
    case .damaged(let path, let line, let reason):
      let place = line.map { "\(path):\($0)" } ?? path
      return "damaged store: \(place): \(reason). Nothing was changed; "
        + "move the damaged file aside or restore it from a backup."
    case .systemCall(let operation, let path, let reason):
      return "cannot \(operation) \(path): \(reason)"
    }
  }
}
