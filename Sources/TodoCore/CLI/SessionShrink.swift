import ActionLog
import Foundation

/// What `shrink` checks: a value the final state should hold, or the recorded diffs.
enum ShrinkCheckArgument: Hashable, Sendable {
  /// `--expect <pointer>=<json>`: the value at the path should be the JSON value.
  case expect(pointer: String, json: String)
  /// `--diverges`: replaying each entry should make the change the log recorded.
  case diverges

  /// Reads `--expect`'s value, `<pointer>=<json>`, split at the first `=` outside an element
  /// step such as `[id=3]`.
  ///
  /// - Throws: ``UsageError`` naming the part that is wrong: no `=`, a pointer that is no
  ///   path, a value that is no JSON.
  static func expectation(_ text: String, command: String) throws(UsageError)
    -> ShrinkCheckArgument
  {
    var depth = 0
    var split: String.Index?
    for index in text.indices {
      switch text[index] {
      case "[": depth += 1
      case "]": depth = max(0, depth - 1)
      case "=" where depth == 0 && split == nil: split = index
      default: break
      }
    }
    guard let split else {
      throw UsageError(
        "--expect needs <pointer>=<json>, such as /todos/0/done=true; '\(text)' has no '='",
        command: command)
    }
    let pointer = String(text[..<split])
    let json = String(text[text.index(after: split)...])
    guard pointer.hasPrefix("/"), JSONPath.steps(pointer) != nil else {
      throw UsageError(
        "--expect: '\(pointer)' is not a path; a path starts with '/', as in /todos/0/done "
          + "or /todos[id=3]/done",
        command: command)
    }
    do {
      _ = try JSONParser.parse(Array(json.utf8))
    } catch {
      throw UsageError(
        "--expect: '\(json)' after '=' is not a JSON value (\(error)); a string needs quotes, "
          + "as in /todos/0/title='\"milk\"'",
        command: command)
    }
    return .expect(pointer: pointer, json: json)
  }
}

/// `shrink <log>`: the smallest sub-session of a recorded session that still fails a check,
/// written as a Swift Testing test, through the library's ``SessionShrinker``.
enum SessionShrink {
  /// Why `shrink` wrote nothing.
  struct Failure: Error, CustomStringConvertible {
    /// What was wrong, naming the file and, for a log, the line.
    var description: String
  }

  /// Shrinks the log at `path` until `check` and returns the test and a one-line summary.
  ///
  /// - Throws: ``Failure`` naming the log and what was wrong with it.
  /// - Complexity: As ``SessionShrinker/shrink(_:initialState:until:)``.
  static func shrink(
    contentsOf path: String, check: ShrinkCheckArgument
  ) throws(Failure) -> (source: String, summary: String) {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw Failure(description: "cannot read \(path): \(error.localizedDescription)")
    }
    do {
      let sessionCheck: SessionCheck<AppState>
      switch check {
      case .expect(let pointer, let json):
        sessionCheck = try .expect(pointer, equals: try JSONParser.parse(Array(json.utf8)))
      case .diverges:
        sessionCheck = .divergesFromRecordedDiffs
      }
      let shrunk = try SessionShrinker(registry: TodoActionLog.makeRegistry())
        .shrink(data, until: sessionCheck)
      let source = shrunk.testSource(
        TestSourceOptions(imports: ["@testable import TodoCore"]))
      let steps = shrunk.steps.count
      return (
        source,
        "shrank \(shrunk.recordedEntryCount) entries to \(steps) step\(steps == 1 ? "" : "s") "
          + "in \(shrunk.checksRun) replays"
      )
    } catch {
      throw Failure(description: "cannot shrink \(path): \(error)")
    }
  }

  /// Writes `source` to `output` atomically: whole, or not at all.
  ///
  /// - Throws: ``Failure`` when `output` is the log itself, a directory, or an existing file
  ///   that cannot be read (which is never written over), or cannot be written.
  static func write(_ source: String, to output: String, log: String) throws(Failure) {
    let url = URL(fileURLWithPath: output)
    let files = FileManager.default
    if url.standardizedFileURL.resolvingSymlinksInPath()
      == URL(fileURLWithPath: log).standardizedFileURL.resolvingSymlinksInPath()
    {
      throw Failure(description: "\(output) is the log being shrunk: not written over")
    }
    var isDirectory: ObjCBool = false
    if files.fileExists(atPath: output, isDirectory: &isDirectory) {
      guard !isDirectory.boolValue else {
        throw Failure(description: "\(output) is a directory: give a file for --output")
      }
      guard files.isReadableFile(atPath: output) else {
        throw Failure(description: "\(output) exists and cannot be read: not written over")
      }
    }
    do {
      try Data(source.utf8).write(to: url, options: .atomic)
    } catch {
      throw Failure(description: "cannot write \(output): \(error.localizedDescription)")
    }
  }
}
