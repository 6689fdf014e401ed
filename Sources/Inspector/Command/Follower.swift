import ActionLog
import Foundation

/// `--follow`: prints the timeline of a log, then each line the writer adds, as it comes.
///
/// Only complete lines are read: a line still being written waits for its newline.
struct Follower {
  let path: String
  let json: Bool

  /// Reads until `wait` returns `false`, the log is damaged, or it cannot be read.
  ///
  /// - Returns: The exit status: 0 when `wait` ended it, 1 on damage or a read failure.
  func run(output: Inspector.Output, wait: () -> Bool) -> Int32 {
    let handle: FileHandle
    do {
      handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    } catch {
      output.message("statestore-inspect: cannot read \(path): \(error.localizedDescription)\n")
      return 1
    }
    defer { try? handle.close() }
    var scanner = LogScanner()
    var tracker = StateTracker()
    var pending: [UInt8] = []
    var offset: UInt64 = 0
    repeat {
      let chunk: Data
      do {
        try handle.seek(toOffset: offset)
        chunk = try handle.readToEnd() ?? Data()
      } catch {
        output.message("statestore-inspect: cannot read \(path): \(error.localizedDescription)\n")
        return 1
      }
      offset += UInt64(chunk.count)
      pending.append(contentsOf: chunk)
      let (lines, tornStart) = JSONLines.split(pending)
      do throws(LogDamage) {
        for line in lines {
          if let record = try scanner.read(pending, line) {
            try tracker.apply(record)
            output.write(Inspector.timelineLine(record, json: json))
          }
        }
      } catch {
        output.message("statestore-inspect: \(path): damaged at \(error)\n")
        return 1
      }
      pending.removeFirst(tornStart ?? pending.count)
      guard pending.count <= LogScanner.maximumLineLength else {
        output.message(
          "statestore-inspect: \(path): damaged at line \(scanner.nextLineNumber): longer than "
            + "\(LogScanner.maximumLineLength) bytes\n")
        return 1
      }
    } while wait()
    return 0
  }
}
