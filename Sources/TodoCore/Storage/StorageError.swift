import StatePersistence

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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

extension StorageError {
  /// The store's error for a failure of the persistence module's file access.
  init(_ error: PersistenceError) {
    switch error {
    case .systemCall("open", let path, ELOOP):
      self = .systemCall(
        operation: "open", path: path,
        reason: "it is a symbolic link, and todo-cli follows none inside its store")
    case .systemCall(let operation, let path, let code):
      self = .systemCall(operation: operation, path: path, reason: String(cString: strerror(code)))
    case .damaged(let file, let line, let reason):
      self = .damaged(path: file, line: line, reason: reason)
    case .uncertain(let cause, let rollback):
      self = .uncertain(cause: cause, rollback: rollback)
    case .newerSchema, .inUse, .encodingFailed, .closed:
      self = .systemCall(operation: "use", path: "the store", reason: error.description)
    }
  }

  /// The result of `body`, which reaches the disk through the persistence module, with its
  /// failure thrown as the store's error.
  static func translating<Value>(_ body: () throws(PersistenceError) -> Value)
    throws(StorageError) -> Value
  {
    do { return try body() } catch { throw StorageError(error) }
  }

  /// The result of `body`, which reaches the disk through the persistence module, with its
  /// failure thrown as the store's error.
  static func translating<Value>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws(PersistenceError) -> Value
  ) async throws(StorageError) -> Value {
    do { return try await body() } catch { throw StorageError(error) }
  }
}
