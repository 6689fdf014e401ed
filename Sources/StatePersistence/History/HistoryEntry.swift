import Foundation
import StateStore

/// One entry of a journaled store's history: an applied updater with where it came from.
public struct HistoryEntry<S: State>: Sendable {
  /// The entry's number, counted from the journal's first entry.
  public let sequence: Int
  /// The name the updater is registered under.
  public let type: String
  /// The scope it was dispatched through (`"settings"`, `"lists/3"`), or `nil` for the root
  /// store.
  public let scope: String?
  /// What dispatched it (a side effect's type, `"undo"` for ``JournaledStore/undo()``), when
  /// known.
  public let cause: String?
  /// When it was journaled, to the millisecond, when the journal records times
  /// (``JournalOptions/recordsTime``): moments after it was applied, as the writer took its
  /// batch.
  public let time: Date?
  /// The entry this one reverted, when ``JournaledStore/undo()`` dispatched it.
  public let undoes: Int?
  /// The updater, decoded through the registry.
  public let updater: any StateUpdater<S>
}
