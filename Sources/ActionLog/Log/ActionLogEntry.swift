import Foundation
import StateStore

/// One recorded updater, as read back from a log.
public struct ActionLogEntry<S: State>: Sendable {
  /// The entry's sequence number (`seq`), from 1.
  public let sequence: Int
  /// The line of the file the entry was read from; the header is line 1.
  public let line: Int
  /// The name the updater type is registered under.
  public let type: String
  /// The decoded updater.
  public let updater: any StateUpdater<S>
  /// What dispatched the updater, if the log says.
  public let cause: DispatchCause?
  /// When the updater was applied, if the log says.
  public let time: Date?
  /// The file and line of the `dispatch` that sent the updater, if the log says (logs
  /// recorded before sites were written do not).
  public let site: DispatchSite?
  /// The number of the side effect that dispatched the updater, as ``RecordedEffect/number``
  /// gives it, when the log recorded effects and knows it.
  public let effect: Int?

  /// Creates an entry.
  public init(
    sequence: Int, line: Int, type: String, updater: any StateUpdater<S>,
    cause: DispatchCause? = nil, time: Date? = nil, site: DispatchSite? = nil, effect: Int? = nil
  ) {
    self.site = site
    self.effect = effect
    self.sequence = sequence
    self.line = line
    self.type = type
    self.updater = updater
    self.cause = cause
    self.time = time
  }
}
