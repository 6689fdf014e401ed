import Foundation
import StateStore

/// Replays an action log: applies its updaters, in order, to an initial state.
///
/// Replay runs updaters only. Side effects are never started again: the log holds the updaters
/// they dispatched, each with its cause, so a replay reproduces their outcome without touching
/// the network, the disk or the clock.
///
/// ```swift
/// let replayer = ActionReplayer(registry: registry)
/// let state = try replayer.replay(contentsOf: url, initialState: TodoState())
/// ```
///
/// Checkpoints in the log are verified: if the replayed state differs from a recorded one, replay
/// throws ``ActionLogError/diverged(_:)`` naming the entry and listing the differences.
/// Every error about the file names its line.
public struct ActionReplayer<S: State>: Sendable {
  /// Whether checkpoints are compared with the replayed state.
  public enum CheckpointPolicy: Sendable, Equatable {
    /// Decode each checkpoint and compare it with `==`; needs a `Decodable & Equatable` state.
    case verify
    /// Skip checkpoints.
    case ignore
  }

  /// What to do with a torn last line: an incomplete line without a newline at the end.
  public enum TornLastLinePolicy: Sendable, Equatable {
    /// Throw ``ActionLogError/tornLastLine(line:)``.
    case fail
    /// Keep every complete entry before it, and report it in ``ReplaySummary/tornLastLine``.
    case skip
  }

  /// How a replay treats checkpoints and torn last lines.
  public struct Options: Sendable, Equatable {
    /// Whether checkpoints are verified; `.verify` by default.
    public var checkpoints: CheckpointPolicy
    /// What a torn last line does; `.fail` by default.
    public var tornLastLine: TornLastLinePolicy

    /// Creates options.
    public init(checkpoints: CheckpointPolicy = .verify, tornLastLine: TornLastLinePolicy = .fail) {
      self.checkpoints = checkpoints
      self.tornLastLine = tornLastLine
    }

    /// Keeps every complete entry before a torn last line, as after a crash while recording.
    public static var lenient: Options { Options(tornLastLine: .skip) }
  }

  /// The updater types the replayer can decode.
  public let registry: ActionLogRegistry<S>
  /// How checkpoints and torn last lines are treated.
  public var options: Options

  /// Creates a replayer that verifies checkpoints and rejects torn last lines.
  public init(registry: ActionLogRegistry<S>) {
    self.init(registry: registry, options: Options())
  }

  /// Creates a replayer with the given options.
  public init(registry: ActionLogRegistry<S>, options: Options) {
    self.registry = registry
    self.options = options
  }

  /// Replays the log at `url` from `initialState` and returns the final state.
  ///
  /// - Throws: ``ActionLogError``: the file is unreadable, a line is bad (with its number), or a
  ///   checkpoint does not match the replayed state.
  /// - Complexity: O(entries × cost of an updater), plus O(state size) per checkpoint verified.
  public func replay(contentsOf url: URL, initialState: S) throws -> S {
    try replaySummary(contentsOf: url, initialState: initialState).finalState
  }

  /// Replays a log held in memory from `initialState` and returns the final state.
  ///
  /// - Complexity: O(entries × cost of an updater), plus O(state size) per checkpoint verified.
  public func replay(_ data: Data, initialState: S) throws -> S {
    try replaySummary(data, initialState: initialState).finalState
  }

  /// Replays the log at `url` and tells what was applied and verified, and whether the last line
  /// was torn.
  ///
  /// - Complexity: O(entries × cost of an updater), plus O(state size) per checkpoint verified.
  public func replaySummary(contentsOf url: URL, initialState: S) throws -> ReplaySummary<S> {
    try replaySummary(Self.read(url), initialState: initialState)
  }

  /// Replays a log held in memory and tells what was applied and verified.
  ///
  /// - Complexity: O(entries × cost of an updater), plus O(state size) per checkpoint verified.
  public func replaySummary(_ data: Data, initialState: S) throws -> ReplaySummary<S> {
    try run(data, initialState: initialState) { _, _ in }
  }

  /// Replays the log at `url` from the state its first checkpoint records, and returns the
  /// final state.
  ///
  /// A recorder with a `checkpointInterval` writes the state when recording starts: replaying
  /// from it starts exactly where the recording did, whatever the app did before the recorder
  /// attached (a navigator's first mirror of the route, a load at launch).
  ///
  /// - Throws: ``ActionLogError/noInitialCheckpoint(line:)`` when no checkpoint comes before the
  ///   first entry; otherwise as ``replay(contentsOf:initialState:)``.
  /// - Complexity: O(entries × cost of an updater), plus O(state size) per checkpoint verified.
  public func replay(contentsOf url: URL) throws -> S where S: Decodable {
    try replay(Self.read(url))
  }

  /// Replays a log held in memory from the state its first checkpoint records, and returns the
  /// final state; see ``replay(contentsOf:)``.
  ///
  /// - Complexity: O(entries × cost of an updater), plus O(state size) per checkpoint verified.
  public func replay(_ data: Data) throws -> S where S: Decodable {
    try replay(data, initialState: try recordedInitialState(data))
  }

  /// The state a log's first checkpoint records, before its first entry: the state its
  /// recording started from.
  ///
  /// - Throws: ``ActionLogError/noInitialCheckpoint(line:)`` when no checkpoint comes before the
  ///   first entry, or an error about a bad line before it.
  /// - Complexity: O(size of the lines up to the first checkpoint).
  public func recordedInitialState(_ data: Data) throws -> S where S: Decodable {
    var reader = try LogReader(
      data: data, registry: registry, acceptsTornLastLine: options.tornLastLine == .skip)
    while let event = try reader.next() {
      switch event {
      case .entry(let entry):
        throw ActionLogError.noInitialCheckpoint(line: entry.line)
      case .checkpoint(_, let line, let text):
        do {
          return try JSONDecoder().decode(CheckpointLine<S>.self, from: text).state
        } catch {
          let (path, reason) = LineFailure.describe(error)
          throw ActionLogError.undecodableCheckpoint(line: line, path: path, reason: reason)
        }
      case .effect:
        continue
      }
    }
    throw ActionLogError.noInitialCheckpoint(line: 1)
  }

  /// Reads the log at `url` without applying it: its entries, decoded, in order.
  ///
  /// Checkpoints are not verified, since no state is computed.
  ///
  /// - Complexity: O(size of the file).
  public func entries(contentsOf url: URL) throws -> [ActionLogEntry<S>] {
    var reader = try LogReader(
      data: try Self.read(url), registry: registry,
      acceptsTornLastLine: options.tornLastLine == .skip)
    var entries: [ActionLogEntry<S>] = []
    while let event = try reader.next() {
      if case .entry(let entry) = event { entries.append(entry) }
    }
    return entries
  }

  /// Reads the side effects a log recorded (see ``ActionRecorder/Options/recordsEffects``):
  /// each one's start, the values it got from its dependencies and its end, in the order they
  /// started.
  ///
  /// Give them to ``RecordedEffects`` to replay the session's effects with the values they
  /// recorded. A log without effect lines has none.
  ///
  /// - Throws: ``ActionLogError`` for a bad header or a damaged line, naming its line.
  /// - Complexity: O(size of the log).
  public func effects(_ data: Data) throws(ActionLogError) -> [RecordedEffect] {
    try EffectLines.read(data)
  }

  /// Reads the side effects the log at `url` recorded; see ``effects(_:)``.
  ///
  /// - Complexity: O(size of the file).
  public func effects(contentsOf url: URL) throws(ActionLogError) -> [RecordedEffect] {
    try EffectLines.read(Self.read(url))
  }

  /// Replays the log, calling `visit` with each entry and the state just after it.
  func run(
    _ data: Data, initialState: S, visit: (ActionLogEntry<S>, S) -> Void
  ) throws(ActionLogError) -> ReplaySummary<S> {
    var reader = try LogReader(
      data: data, registry: registry, acceptsTornLastLine: options.tornLastLine == .skip)
    var state = initialState
    var verifier = CheckpointVerifier<S>()
    var lastEntry: ActionLogEntry<S>?
    var applied = 0
    while let event = try reader.next() {
      switch event {
      case .entry(let entry):
        entry.updater.updateState(&state)
        applied += 1
        lastEntry = entry
        visit(entry, state)
      case .checkpoint(let sequence, let line, let text):
        guard options.checkpoints == .verify else { continue }
        try verifier.verify(
          state, sequence: sequence, line: line, text: text, after: lastEntry)
      case .effect:
        continue
      }
    }
    return ReplaySummary(
      finalState: state, entriesApplied: applied, lastSequence: lastEntry?.sequence ?? 0,
      checkpointsVerified: verifier.verifiedCount, tornLastLine: reader.tornLine)
  }

  static func read(_ url: URL) throws(ActionLogError) -> Data {
    do {
      return try Data(contentsOf: url, options: .mappedIfSafe)
    } catch {
      throw .fileError(path: url.path, reason: error.localizedDescription)
    }
  }
}

/// What a replay applied and verified.
public struct ReplaySummary<S: State>: Sendable {
  /// The state after the last entry.
  public let finalState: S
  /// How many entries were applied.
  public let entriesApplied: Int
  /// The sequence number of the last entry applied, 0 if none.
  public let lastSequence: Int
  /// How many checkpoints matched the replayed state.
  public let checkpointsVerified: Int
  /// The line number of a torn last line that was skipped, if there was one.
  public let tornLastLine: Int?
}
