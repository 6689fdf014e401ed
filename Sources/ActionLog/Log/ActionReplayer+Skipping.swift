import Foundation
import StateStore

/// What a log's session would have ended with had some of its entries never been dispatched:
/// Redux DevTools' "skip", from ``ActionReplayer/replay(_:initialState:skipping:)``.
///
/// ```swift
/// let report = try replayer.replay(contentsOf: url, initialState: TodoState(), skipping: [3])
/// report.firstDifference   // 3: the state differs from the recorded one from entry 3 on
/// report.differences       // ["todos[0].done: true → false"]
/// ```
public struct SkipReport<S: State>: Sendable {
  /// The entries skipped, in order: those asked for that the log has.
  public let skipped: [Int]
  /// The entries asked for that the log does not have, in order.
  public let missing: [Int]
  /// The final state of the whole log, as recorded.
  public let recordedState: S
  /// The final state with the entries skipped.
  public let finalState: S
  /// The first entry after which the two replays' states differ, or `nil` if they never do.
  ///
  /// A skipped entry that changed nothing, or whose change a later entry undid, leaves the
  /// states equal; a difference shows from the first entry that acted differently on.
  public let firstDifference: Int?
  /// How the final states differ, `recorded → with the entries skipped`, one field per line
  /// (see ``StateDiff``); empty when they do not.
  public let differences: [String]
}

extension ActionReplayer {
  /// Replays the log held in memory twice in one pass, as recorded and with the entries
  /// `sequences` skipped, and reports where and how the final states differ.
  ///
  /// Checkpoints are verified (or not) against the replay as recorded, as ``options`` say.
  ///
  /// - Parameters:
  ///   - data: The log's bytes, header first.
  ///   - initialState: The state the recorded session started from.
  ///   - sequences: The `seq` numbers of the entries to skip.
  /// - Throws: ``ActionLogError``, as ``replay(_:initialState:)`` does.
  /// - Complexity: O(entries × cost of an updater), plus one comparison of the two states per
  ///   entry until they first differ, and one ``StateDiff`` of the final states.
  public func replay(
    _ data: Data, initialState: S, skipping sequences: Set<Int>
  ) throws -> SkipReport<S> {
    var skippedState = initialState
    var skipped: [Int] = []
    var firstDifference: Int?
    let summary = try run(data, initialState: initialState) { entry, state in
      if sequences.contains(entry.sequence) {
        skipped.append(entry.sequence)
      } else {
        entry.updater.updateState(&skippedState)
      }
      if firstDifference == nil, Self.differ(state, skippedState) {
        firstDifference = entry.sequence
      }
    }
    let found = Set(skipped)
    return SkipReport(
      skipped: skipped, missing: sequences.subtracting(found).sorted(),
      recordedState: summary.finalState, finalState: skippedState,
      firstDifference: firstDifference,
      differences: StateDiff.lines(from: summary.finalState, to: skippedState))
  }

  /// Replays the log at `url` as recorded and with the entries `sequences` skipped, and reports
  /// where and how the final states differ; see ``replay(_:initialState:skipping:)``.
  ///
  /// - Complexity: O(entries × cost of an updater), plus the comparisons of the two states.
  public func replay(
    contentsOf url: URL, initialState: S, skipping sequences: Set<Int>
  ) throws -> SkipReport<S> {
    try replay(Self.read(url), initialState: initialState, skipping: sequences)
  }

  /// Whether two states differ: by `==` when the state is `Equatable`, by ``StateDiff``
  /// otherwise.
  private static func differ(_ lhs: S, _ rhs: S) -> Bool {
    if let equal = diffEquality(lhs, rhs) { return !equal }
    return !StateDiff.lines(from: lhs, to: rhs, options: .init(maximumLines: 1)).isEmpty
  }
}
