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
    let tail: LogTail
    do {
      tail = try LogTail(path: path)
    } catch {
      output.message("statestore-inspect: \(Self.message(error, path: path))\n")
      return 1
    }
    repeat {
      do {
        try tail.readNew { record, _, _ in output.write(Inspector.timelineLine(record, json: json))
        }
      } catch {
        output.message("statestore-inspect: \(Self.message(error, path: path))\n")
        return 1
      }
    } while wait()
    return 0
  }

  /// What a failure says: `cannot read FILE: …` or `FILE: damaged at line N: …`.
  static func message(_ failure: LogTail.Failure, path: String) -> String {
    switch failure {
    case .unreadable(let message): message
    case .damaged(let damage): "\(path): damaged at \(damage)"
    }
  }
}
