import ActionLog
import Foundation

/// `replay <log>`: the state an action log leads to from an empty list, through the library's
/// ``ActionReplayer``; the store is not touched.
enum SessionReplay {
  /// Replays the log at `path` onto an empty list.
  ///
  /// - Throws: ``ActionLogError``, naming the line at fault, when the log cannot be replayed.
  /// - Complexity: O(entries × cost of an updater).
  static func replay(contentsOf path: String) throws -> AppState {
    do {
      return try ActionReplayer(registry: TodoActionLog.makeRegistry())
        .replay(contentsOf: URL(fileURLWithPath: path), initialState: AppState())
    } catch let error as ActionLogError {
      if case .fileError = error { throw error }
      throw ReplayFailure(path: path, error: error)
    }
  }
}

/// A log that could not be replayed, with the path of the log.
struct ReplayFailure: Error, CustomStringConvertible {
  /// The log's path.
  var path: String
  /// What was wrong, with the line number.
  var error: ActionLogError

  /// `cannot replay <path>: <what was wrong>`.
  var description: String { "cannot replay \(path): \(error)" }
}
