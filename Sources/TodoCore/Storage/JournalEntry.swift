import Foundation
import StatePersistence

/// One change in the todo store's history, as `history` and `undo` show it.
///
/// On disk it is an entry of the journaled store's journal, an action log in the documented
/// format (`{"seq":…,"type":…,"payload":…}`), with `undoes` on an entry written by `undo`.
struct JournalEntry: Sendable, Hashable {
  /// The position in the journal, from 1, without gaps.
  var seq: Int
  /// The change that was applied.
  var change: AnyTodoChange
  /// The `seq` of the entry this one undid, if it was written by `undo`.
  var undoes: Int?
  /// When the change was made; entries written by todo-cli 0.1.0 have none.
  var time: Date?

  init(seq: Int, change: AnyTodoChange, undoes: Int? = nil, time: Date? = nil) {
    self.seq = seq
    self.change = change
    self.undoes = undoes
    self.time = time
  }

  /// The entry of the journaled store's history `entry`, or `nil` if its updater is not one of
  /// the todo app's changes.
  init?(_ entry: HistoryEntry<AppState>) {
    guard let change = entry.updater as? any TodoChange else { return nil }
    self.init(seq: entry.sequence, change: change.erased, undoes: entry.undoes, time: entry.time)
  }
}
