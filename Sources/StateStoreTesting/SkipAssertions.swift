import ActionLog
import Foundation
import StateStore
import Testing

/// Replays a recorded log with the entries `sequences` skipped, and records a test issue unless
/// the final state differs from the recorded one exactly as `differences` says.
///
/// Pins what an entry contributes to a session, Redux DevTools' "skip" as a test:
///
/// ```swift
/// @Test func theToggleIsWhatMarksMilkDone() throws {
///   try assertSkipping(
///     [3], fixture: url, registry: .app, initialState: TodoState(),
///     differences: ["todos[0].done: true → false"])
/// }
/// ```
///
/// `differences: []` asserts that skipping the entries changes nothing in the end. Entries the
/// log does not have are an issue too: a skip that skipped nothing proves nothing.
///
/// - Parameters:
///   - sequences: The `seq` numbers of the entries to skip.
///   - url: The log file.
///   - registry: The updater types of the log.
///   - initialState: The state the recorded session started from.
///   - differences: The expected lines of `StateDiff`, `recorded → skipped`.
///   - options: How checkpoints and a torn last line are treated.
///   - sourceLocation: Where an issue is recorded; the caller's line by default.
/// - Returns: The report, for further checks.
/// - Throws: `ActionLogError` when the log cannot be replayed.
/// - Complexity: O(entries × cost of an updater), plus the comparisons of the two states.
@discardableResult
public func assertSkipping<S: State>(
  _ sequences: Set<Int>, fixture url: URL, registry: ActionLogRegistry<S>, initialState: S,
  differences: [String], options: ActionReplayer<S>.Options = .init(),
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> SkipReport<S> {
  let report = try ActionReplayer(registry: registry, options: options)
    .replay(contentsOf: url, initialState: initialState, skipping: sequences)
  let name = url.lastPathComponent
  if !report.missing.isEmpty {
    Issue.record(
      Comment(
        rawValue: "skipping in \(name): the log has no entries "
          + report.missing.map(String.init).joined(separator: ", ")),
      sourceLocation: sourceLocation)
  }
  if report.differences != differences {
    let differing = report.firstDifference.map { "from entry \($0) on" } ?? "nowhere"
    Issue.record(
      Comment(
        rawValue: "skipping entries \(report.skipped.map(String.init).joined(separator: ", ")) "
          + "in \(name): the final state differs (\(differing)) otherwise than expected.\n"
          + "expected (recorded → skipped):\n  " + differences.joined(separator: "\n  ")
          + "\nactual:\n  " + report.differences.joined(separator: "\n  ")),
      sourceLocation: sourceLocation)
  }
  return report
}
