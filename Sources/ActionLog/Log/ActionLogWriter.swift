import Foundation
import StateStore

/// Builds an action log in memory from updaters, without a store.
///
/// Use it to write logs from code (fixtures, benchmarks, tools), or to measure what recording
/// costs. ``ActionRecorder`` writes the same lines for a live store.
///
/// ```swift
/// var writer = ActionLogWriter(registry: registry)
/// try writer.append(AddTodo(title: "milk"))
/// try writer.appendCheckpoint(state)
/// let state = try ActionReplayer(registry: registry).replay(writer.data, initialState: .init())
/// ```
public struct ActionLogWriter<S: State> {
  private var encoder: LineEncoder<S>
  /// The log so far, header included.
  public private(set) var data: Data
  /// The sequence number of the last entry, 0 before the first.
  public private(set) var lastSequence = 0

  /// Creates a writer whose log starts with a header.
  ///
  /// - Parameters:
  ///   - registry: The updater types it may write.
  ///   - created: The creation time written in the header.
  public init(registry: ActionLogRegistry<S>, created: Date = Date()) {
    self.encoder = LineEncoder(registry: registry)
    self.data = ActionLogHeader.recorderLine(stateType: S.self, created: created)
  }

  /// Appends an entry for `updater`.
  ///
  /// An updater whose type is not registered, or that fails to encode, is written as an
  /// `unrecorded` marker (so a replay stops there rather than silently diverging) and reported by
  /// the error thrown.
  ///
  /// - Complexity: O(size of the updater's encoding), independent of any state.
  public mutating func append(
    _ updater: any StateUpdater<S>, cause: DispatchCause? = nil, time: Date? = nil,
    site: DispatchSite? = nil
  ) throws(ActionLogError) {
    lastSequence += 1
    let (line, failure) = encoder.entry(
      updater, sequence: lastSequence, cause: cause, time: time, site: site)
    data.append(line)
    if let failure { throw failure }
  }

  /// Appends a checkpoint recording `state` as the state after the last entry.
  ///
  /// - Complexity: O(size of the state).
  public mutating func appendCheckpoint(_ state: S) throws(ActionLogError) {
    data.append(try encoder.checkpoint(state, sequence: lastSequence))
  }
}
