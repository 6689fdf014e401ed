import Foundation
import StateStore

/// A replayed log that can give the state after any entry without replaying from the start.
///
/// The timeline keeps a snapshot of the state every `snapshotInterval` entries, so the state after
/// any entry costs at most `snapshotInterval - 1` updater applications from the nearest snapshot:
///
/// ```swift
/// let timeline = try replayer.timeline(contentsOf: url, initialState: TodoState())
/// let before = timeline.state(afterEntry: 41)
/// let after = timeline.state(afterEntry: 42)
/// print(StateDiff.lines(from: before, to: after))
/// ```
///
/// Memory holds `entries.count / snapshotInterval` states; a smaller interval is faster to seek
/// and costs more memory.
public struct ActionTimeline<S: State>: Sendable {
  /// The entries, in order.
  public let entries: [ActionLogEntry<S>]
  /// The state before the first entry.
  public let initialState: S
  /// How many entries separate two snapshots.
  public let snapshotInterval: Int
  /// `snapshots[k]` is the state after the first `k × snapshotInterval` entries.
  private let snapshots: [S]
  /// The state after the last entry.
  public let finalState: S

  init(initialState: S, entries: [ActionLogEntry<S>], snapshots: [S], interval: Int, final: S) {
    self.initialState = initialState
    self.entries = entries
    self.snapshots = snapshots
    self.snapshotInterval = interval
    self.finalState = final
  }

  /// The sequence number of the last entry, 0 if the log has none.
  public var lastSequence: Int { entries.last?.sequence ?? 0 }

  /// The state after every entry whose sequence number is at most `sequence`; `nil` when
  /// `sequence` is negative or past the last entry.
  ///
  /// `state(afterEntry: 0)` is the initial state.
  ///
  /// - Complexity: O(log n) to find the entry, then at most `snapshotInterval - 1` updaters.
  public func state(afterEntry sequence: Int) -> S? {
    guard sequence >= 0, sequence <= lastSequence else { return nil }
    var low = 0
    var high = entries.count
    while low < high {
      let middle = (low + high) / 2
      if entries[middle].sequence <= sequence { low = middle + 1 } else { high = middle }
    }
    return state(afterEntries: low)
  }

  /// The state after the first `count` entries; `nil` when `count` is out of `0...entries.count`.
  ///
  /// - Complexity: At most `snapshotInterval - 1` updater applications.
  public func state(afterEntries count: Int) -> S? {
    guard count >= 0, count <= entries.count else { return nil }
    let snapshotIndex = min(count / snapshotInterval, snapshots.count - 1)
    var state = snapshots[snapshotIndex]
    var index = snapshotIndex * snapshotInterval
    while index < count {
      entries[index].updater.updateState(&state)
      index += 1
    }
    return state
  }
}

extension ActionReplayer {
  /// Replays the log at `url` into a timeline that can seek to any entry.
  ///
  /// - Parameters:
  ///   - url: The log file.
  ///   - initialState: The state the recorded session started from.
  ///   - snapshotInterval: Entries between two in-memory snapshots (at least 1).
  /// - Complexity: O(entries × cost of an updater), plus a state copy per snapshot.
  public func timeline(
    contentsOf url: URL, initialState: S, snapshotInterval: Int = 64
  ) throws -> ActionTimeline<S> {
    try timeline(Self.read(url), initialState: initialState, snapshotInterval: snapshotInterval)
  }

  /// Replays a log held in memory into a timeline that can seek to any entry.
  ///
  /// - Parameters:
  ///   - data: The log's bytes, header first.
  ///   - initialState: The state the recorded session started from.
  ///   - snapshotInterval: Entries between two in-memory snapshots (at least 1).
  /// - Complexity: O(entries × cost of an updater), plus a state copy per snapshot.
  public func timeline(
    _ data: Data, initialState: S, snapshotInterval: Int = 64
  ) throws -> ActionTimeline<S> {
    let interval = max(1, snapshotInterval)
    var entries: [ActionLogEntry<S>] = []
    var snapshots = [initialState]
    let summary = try run(data, initialState: initialState) { entry, state in
      entries.append(entry)
      if entries.count % interval == 0 { snapshots.append(state) }
    }
    return ActionTimeline(
      initialState: initialState, entries: entries, snapshots: snapshots, interval: interval,
      final: summary.finalState)
  }
}
