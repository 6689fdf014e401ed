/// Where and how a replay stopped reproducing the recorded state.
///
/// A checkpoint stores the recorded state after an entry. When the replayed state differs, the
/// change happened in one of the entries since the last checkpoint that matched: with checkpoints
/// after every entry, ``sequence`` is exactly the entry that behaved differently.
public struct ReplayDivergence: Sendable, Equatable, CustomStringConvertible {
  /// The entry after which the state differs (0 for the state before any entry).
  public let sequence: Int
  /// The line of that entry, or `nil` for the state before any entry.
  public let entryLine: Int?
  /// The registered type name of that entry, or `nil` for the state before any entry.
  public let entryType: String?
  /// The line of the checkpoint that did not match.
  public let checkpointLine: Int
  /// The entry of the last checkpoint that matched, or `nil` if none did.
  public let lastMatchingSequence: Int?
  /// The differences, `recorded → replayed`, one field per line (see ``StateDiff``).
  public let differences: [String]

  /// Creates a divergence report.
  public init(
    sequence: Int, entryLine: Int?, entryType: String?, checkpointLine: Int,
    lastMatchingSequence: Int?, differences: [String]
  ) {
    self.sequence = sequence
    self.entryLine = entryLine
    self.entryType = entryType
    self.checkpointLine = checkpointLine
    self.lastMatchingSequence = lastMatchingSequence
    self.differences = differences
  }

  /// A readable account: which entry, which checkpoint, and the field-by-field diff.
  public var description: String {
    var text: String
    if let entryLine, let entryType {
      text =
        "replay diverged after entry \(sequence) (\(entryType), line \(entryLine)): "
        + "the state differs from the checkpoint on line \(checkpointLine)"
    } else {
      text =
        "replay diverged before the first entry: the initial state differs from the checkpoint "
        + "on line \(checkpointLine); replay from the state the session started from"
    }
    let since = lastMatchingSequence.map { $0 + 1 } ?? 1
    if since < sequence {
      text += "; the change happened in entries \(since)…\(sequence)"
      text += lastMatchingSequence.map { " (the checkpoint after entry \($0) matched)" } ?? ""
    }
    text += ". Differences (recorded → replayed):"
    for line in differences { text += "\n  " + line }
    return text
  }
}
