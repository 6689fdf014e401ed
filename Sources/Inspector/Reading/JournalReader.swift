import ActionLog
import Foundation
import StatePersistence

/// Reads the directory of a `StatePersistence` journal as one log: the snapshot is its first
/// checkpoint, and the entries of the journal's segments after it follow, in order.
///
/// It follows the journal's own rules, from `StatePersistence`: which segments hold entries
/// after the snapshot, how a snapshot is checked, what a torn tail is. Entries are numbered from
/// 1 without gaps across segments; those the snapshot covers are skipped; only the last segment
/// may end in a torn tail, which is ignored, as the journal ignores it. It never writes: not
/// even the lock file.
struct JournalReader {
  let layout: JournalLayout

  init(directory: String) {
    layout = JournalLayout(directory: directory)
  }

  /// Calls `visit` with every record, in order, and the encoded state after it, and returns
  /// what stopped the reading, if anything did; the damage names the file.
  ///
  /// - Throws: ``InspectorError`` when the directory or a file cannot be read, or the
  ///   directory is no journal.
  /// - Complexity: O(size of the snapshot and of the segments read), plus what `visit` costs;
  ///   one segment is held at a time.
  func scan(_ visit: LogFileReader.Visitor) throws(InspectorError) -> LogDamage? {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: layout.directory)
    } catch {
      throw InspectorError("cannot read \(layout.directory): \(error.localizedDescription)")
    }
    let hasSnapshot = names.contains("snapshot.json")
    let starts = JournalLayout.segmentStarts(names)
    guard hasSnapshot || !starts.isEmpty else {
      throw InspectorError(
        "\(layout.directory) is a directory but no StatePersistence journal: it has neither "
          + "snapshot.json nor journal-N.jsonl")
    }
    var tracker = StateTracker()
    var last = 0
    do throws(LogDamage) {
      if hasSnapshot {
        let checkpoint = try readSnapshot()
        guard case .checkpoint(let sequence, _, _) = checkpoint else { return nil }
        try tracker.apply(checkpoint)
        last = sequence
        if try !visit(checkpoint, tracker.state) { return nil }
      }
      let snapshotSequence = last
      for first in JournalLayout.neededSegments(starts, snapshotSequence: snapshotSequence) {
        let name = "journal-\(first).jsonl"
        guard first <= last + 1 else {
          throw LogDamage(
            file: name, line: 1,
            reason: "it starts at entry \(first), but the entries before it end at \(last): "
              + "entries are missing")
        }
        let bytes = try read(layout.segmentPath(first: first), name: name)
        let (lines, tornStart) = JSONLines.readable(bytes)
        if tornStart != nil, first != starts.last {
          throw LogDamage(
            file: name, line: lines.count + 1,
            reason: "the last line is incomplete, and later segments follow")
        }
        var scanner = LogScanner()
        for range in lines {
          let record: LogRecord?
          do {
            record = try scanner.read(bytes, range)
          } catch {
            throw LogDamage(file: name, line: error.line, reason: error.reason)
          }
          // The journal's own checkpoints repeat what the snapshot and the entries give.
          guard case .entry(let entry) = record else { continue }
          func damage(_ reason: String) -> LogDamage {
            LogDamage(file: name, line: entry.line, reason: reason)
          }
          if entry.sequence <= last {
            guard entry.sequence <= snapshotSequence else {
              throw damage("entry \(entry.sequence) comes after entry \(last)")
            }
            continue
          }
          guard entry.sequence == last + 1 else {
            throw damage("expected entry \(last + 1) but found entry \(entry.sequence)")
          }
          try tracker.apply(.entry(entry))
          last = entry.sequence
          if try !visit(.entry(entry), tracker.state) { return nil }
        }
      }
    } catch {
      return error
    }
    return nil
  }

  /// The snapshot as the checkpoint after the entry it includes.
  private func readSnapshot() throws(LogDamage) -> LogRecord {
    let name = "snapshot.json"
    return try SnapshotReader.read(read(layout.snapshotPath, name: name), file: name).checkpoint
  }

  /// The bytes of the file at `path`; a file that cannot be read stops the reading there, as
  /// damage of the file `name`.
  private func read(_ path: String, name: String) throws(LogDamage) -> [UInt8] {
    do {
      return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    } catch {
      throw LogDamage(
        file: name, line: 1, reason: "cannot read it: \(error.localizedDescription)")
    }
  }
}
