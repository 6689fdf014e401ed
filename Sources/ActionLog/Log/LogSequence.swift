/// The sequence numbers a log may hold.
///
/// Entries count from 1, a checkpoint names the entry before it (0 before any). The largest is
/// one below `Int.max`, so that a recorder continuing a log can always number its next entry,
/// and reaching the end is an error, not an overflow.
enum LogSequence {
  /// The valid `seq` of an entry or unrecorded marker.
  static let entries = 1...(Int.max - 1)
  /// The valid `checkpoint` number.
  static let checkpoints = 0...(Int.max - 1)

  static func describe(_ range: ClosedRange<Int>) -> String {
    "\(range.lowerBound)...\(range.upperBound)"
  }
}
