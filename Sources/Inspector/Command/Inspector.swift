import ActionLog
import Foundation

/// `statestore-inspect`: answers questions about an action log, for people and for scripts.
package enum Inspector {
  /// Where the inspector writes: its output and its messages.
  package struct Output {
    /// Standard output.
    package var write: (String) -> Void
    /// Standard error: messages, each a whole line.
    package var message: (String) -> Void

    /// Creates an output from two writers.
    package init(write: @escaping (String) -> Void, message: @escaping (String) -> Void) {
      self.write = write
      self.message = message
    }
  }

  /// Runs the inspector on `arguments` (without the program's name).
  ///
  /// - Parameter wait: For `--follow`: waits before the next look at the file and returns
  ///   whether to go on.
  /// - Returns: The exit status: 0 done, 1 unreadable, damaged or unanswerable, 2 usage error.
  package static func run(
    _ arguments: [String], output: Output, wait: () -> Bool = { false }
  ) -> Int32 {
    let parsed: InspectArguments
    do {
      parsed = try InspectArguments(arguments)
    } catch let error as InspectArguments.UsageError {
      output.message("statestore-inspect: \(error)\n")
      return 2
    } catch {
      output.write(InspectArguments.help)
      return 0
    }
    if parsed.follow {
      return Follower(path: parsed.file, json: parsed.json).run(output: output, wait: wait)
    }
    let input = LogInput(path: parsed.file)
    do {
      try input.checkReadable()
    } catch {
      output.message("statestore-inspect: \(error)\n")
      return 1
    }
    let damage: LogDamage?
    do {
      damage = try answer(parsed, input: input, output: output)
    } catch {
      output.message("statestore-inspect: \(parsed.file): \(error)\n")
      return 1
    }
    guard let damage else { return 0 }
    output.message("statestore-inspect: \(parsed.file): damaged at \(damage)\n")
    return 1
  }

  /// Writes the answer to the question, as far as the log allows, and returns the damage met.
  private static func answer(
    _ arguments: InspectArguments, input: LogInput, output: Output
  ) throws(InspectorError) -> LogDamage? {
    switch arguments.query {
    case .timeline:
      if case .snapshot(let path) = input {
        // One value, not a session: shown whole, with what its header says.
        switch try LogFileReader.readSnapshot(path) {
        case .success(let snapshot):
          output.write(SnapshotReader.description(snapshot, json: arguments.json))
          return nil
        case .failure(let damage):
          return damage
        }
      }
      return try LogFileReader.scan(input) { record, _ in
        output.write(timelineLine(record, json: arguments.json))
        return true
      }
    case .state(let sequence):
      let lookup = try StateLookup.reading([sequence], in: input)
      let state = try answerOrDamage(lookup.damage) { () throws(InspectorError) in
        try lookup.state(after: sequence)
      }
      output.write((arguments.json ? state.text() : state.indentedText) + "\n")
      return lookup.damage
    case .diff(let from, let to):
      let lookup = try StateLookup.reading([from, to], in: input)
      let (old, new) = try answerOrDamage(lookup.damage) { () throws(InspectorError) in
        (try lookup.state(after: from), try lookup.state(after: to))
      }
      let changes = JSONChange.changes(from: old, to: new)
      if arguments.json {
        let object = JSONObject([
          ("from", .number(String(from))), ("to", .number(String(to))),
          ("diff", JSONChange.json(changes)),
        ])
        output.write(JSONValue.object(object).text() + "\n")
      } else {
        output.write(changes.map { TextOutput.change($0) + "\n" }.joined())
        if changes.isEmpty { output.write("no difference\n") }
      }
      return lookup.damage
    case .changes(let path):
      return try PathHistory.write(
        of: path, in: input, json: arguments.json, to: output.write)
    case .why(let path, let at):
      return try ChangeOrigin.write(
        of: path, at: at, in: input, json: arguments.json, to: output.write)
    case .summary:
      let summary = try LogSummary(of: input)
      output.write(arguments.json ? summary.json.text() + "\n" : summary.text)
      return summary.damage
    case .html(let path):
      let report = try HTMLReport(
        input, title: URL(fileURLWithPath: arguments.file).lastPathComponent)
      do {
        try Data(report.page.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
      } catch {
        throw InspectorError("cannot write \(path): \(error.localizedDescription)")
      }
      return report.damage
    }
  }

  /// The answer, or, when the log is damaged before it, an error that names the damage.
  private static func answerOrDamage<T>(
    _ damage: LogDamage?, _ body: () throws(InspectorError) -> T
  ) throws(InspectorError) -> T {
    do {
      return try body()
    } catch {
      guard let damage else { throw error }
      throw InspectorError("\(error); damaged at \(damage)")
    }
  }

  /// One line of the timeline, newline included.
  static func timelineLine(_ record: LogRecord, json: Bool) -> String {
    switch record {
    case .entry(let entry):
      return (json ? entry.json.text() : TextOutput.timelineLine(entry)) + "\n"
    case .checkpoint(let sequence, let line, _):
      if json {
        return JSONValue.object(
          JSONObject([
            ("checkpoint", .number(String(sequence))), ("line", .number(String(line))),
          ])
        ).text() + "\n"
      }
      return "checkpoint after entry \(sequence) (line \(line))\n"
    case .effect(let effect, let line):
      return (json ? EffectText.json(effect, line: line).text() : EffectText.line(effect)) + "\n"
    }
  }
}
