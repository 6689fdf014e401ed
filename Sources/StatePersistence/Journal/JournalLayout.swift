import ActionLog
import Foundation

/// The files of a journal's directory and the journal's header line.
///
/// - `snapshot.json`: the state after entry `seq` (see ``SnapshotCodec``).
/// - `journal-N.jsonl`: a segment, an action log whose first entry is entry `N`.
/// - `lock`: held with `flock` by the process writing.
package struct JournalLayout: Sendable {
  package let directory: String

  package init(directory: String) {
    self.directory = directory
  }

  package var snapshotPath: String { directory + "/snapshot.json" }
  var lockPath: String { directory + "/lock" }

  /// The path of the segment starting at entry `first`.
  package func segmentPath(first: Int) -> String { directory + "/journal-\(first).jsonl" }

  /// The first entries of the segments among `names`, in order.
  ///
  /// - Complexity: O(n log n) for n names.
  package static func segmentStarts(_ names: [String]) -> [Int] {
    names.compactMap(segmentStart).sorted()
  }

  /// The segments, of `starts` (in order), that hold entries after the snapshot's: every one
  /// but those that the next segment shows to end within what the snapshot covers (a crash
  /// between the snapshot and their removal leaves them).
  ///
  /// - Complexity: O(segments).
  package static func neededSegments(_ starts: [Int], snapshotSequence: Int) -> [Int] {
    starts.indices.filter { index in
      index + 1 == starts.count || starts[index + 1] > snapshotSequence + 1
    }.map { starts[$0] }
  }

  /// The first entry of the segment named `name`, or `nil` if `name` is not a segment's.
  static func segmentStart(_ name: String) -> Int? {
    guard name.hasPrefix("journal-"), name.hasSuffix(".jsonl") else { return nil }
    let digits = name.dropFirst("journal-".count).dropLast(".jsonl".count)
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.first != "0",
      let first = Int(digits), first >= 1
    else { return nil }
    return first
  }

  /// A segment's first line, newline included: an action-log header naming the state type and
  /// the schema version.
  static func header(stateType: Any.Type, schema: Int) -> [UInt8] {
    let text = ActionLogHeader.text(["state": String(describing: stateType)])
    return Array((text.dropLast() + ",\"schema\":\(schema)}\n").utf8)
  }

  /// The schema version in a segment's header line; 1 when it names none.
  struct SchemaField: Decodable {
    var schema: Int?
  }
}
