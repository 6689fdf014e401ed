/// Why a replay could not feed an effect the values its log recorded: the replay and the log
/// went different ways.
///
/// Each names the effect (its type and its number in the log) and the entry it started after,
/// so that the divergence can be found in the log.
public struct EffectReplayError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Problem: Sendable, Hashable {
    /// The effect asked for a value the log does not have: it asked for more values than the
    /// effect recorded, or no effect of its type was recorded at this point.
    case valueNotRecorded
    /// The effect asked for a value labelled `asked` where the log recorded one labelled
    /// `recorded`.
    case labelMismatch(recorded: String, asked: String)
    /// The recorded value does not decode as the type the effect asked for.
    case undecodable(reason: String)
    /// The replay ended with this many of the effect's recorded values never asked for: the
    /// effect did not run, or stopped earlier than it did when recorded.
    case valuesNotReplayed(count: Int)
    /// A replay that runs the effects could not start this effect again: its type is not
    /// registered with `registerEffect(_:name:)`, or its recorded encoding does not decode.
    case cannotStart(reason: String)
    /// The replay's effects all ended with this many of the updaters they dispatched when
    /// recorded still missing: they went another way.
    case updatersMissing(count: Int)
  }

  /// The effect: its type and, when the log has it, its number there (`Search, effect 2`).
  public var effect: String
  /// The `seq` of the entry the effect started after in the log, 0 before any entry.
  public var entry: Int
  /// The label of the value concerned.
  public var label: String
  /// What went wrong.
  public var problem: Problem

  /// Creates an error about `effect`, started after `entry`.
  public init(effect: String, entry: Int, label: String, problem: Problem) {
    self.effect = effect
    self.entry = entry
    self.label = label
    self.problem = problem
  }

  /// The problem in a sentence, naming the effect and the entry.
  public var description: String {
    let place = "\(effect), started after entry \(entry)"
    switch problem {
    case .valueNotRecorded:
      return
        "\(place): asked for a value \"\(label)\" that the log did not record; the replay no "
        + "longer follows the recorded session (record it again, or give the effect its value)"
    case .labelMismatch(let recorded, let asked):
      return
        "\(place): asked for \"\(asked)\" where the log recorded \"\(recorded)\"; the effect "
        + "asks its dependencies in another order than when it was recorded"
    case .undecodable(let reason):
      return "\(place): the recorded value \"\(label)\" does not decode: \(reason)"
    case .cannotStart(let reason):
      return "\(place): cannot be started again: \(reason)"
    case .updatersMissing(let count):
      return
        "\(place): the replay's effects ended with \(count) of the updaters they dispatched "
        + "when recorded never dispatched; they went another way"
    case .valuesNotReplayed(let count):
      return
        "\(place): \(count) recorded value(s) from \"\(label)\" on were never asked for; the "
        + "replay did not reach the effect, or it stopped earlier than when recorded"
    }
  }
}

/// The error a dependency threw when its effect was recorded, thrown again in a replay.
public struct RecordedDependencyError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The value's label.
  public var label: String
  /// The recorded error's description.
  public var failure: String

  /// Creates the error recorded for `label`.
  public init(label: String, failure: String) {
    self.label = label
    self.failure = failure
  }

  /// `label: failure`.
  public var description: String { "\(label): \(failure)" }
}
