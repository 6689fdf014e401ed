import ActionLog
import Foundation
import StateStore
import Testing

/// Replays a recorded log and records a test issue, with a field-by-field diff, unless the final
/// state equals `expected`.
///
/// One line turns a recorded session into a test:
///
/// ```swift
/// @Test func reproducesBugReport() throws {
///   let url = try #require(Bundle.module.url(forResource: "Fixtures/bug-412", withExtension: "jsonl"))
///   try assertReplay(fixture: url, registry: .todo, initialState: TodoState(), equals: expected)
/// }
/// ```
///
/// A checkpoint that does not match is recorded as an issue too, naming the entry and the diff.
/// A session recorded from a started app (a navigator has already mirrored the route) starts
/// from a state the app's `init()` does not give: replay it from its first checkpoint with
/// ``assertReplay(fixture:registry:equals:options:sourceLocation:)`` instead.
///
/// - Returns: The replayed final state, for further checks (also when it differs from
///   `expected`: that is recorded as an issue). `nil` when the replay diverged from one of the
///   log's checkpoints, which is recorded as an issue too: the replay stopped there and has no
///   final state.
/// - Throws: `ActionLogError` when the log cannot be read at all: a missing file, a bad header,
///   a malformed line, an unknown type.
@discardableResult
public func assertReplay<S: State & Equatable>(
  fixture url: URL, registry: ActionLogRegistry<S>, initialState: S, equals expected: S,
  options: ActionReplayer<S>.Options = .init(),
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> S? {
  try assertReplayedState(
    url, registry: registry, options: options, equals: expected, sourceLocation: sourceLocation
  ) { try $0.replay(contentsOf: url, initialState: initialState) }
}

/// Replays a recorded log from the state its first checkpoint records, and records a test issue,
/// with a field-by-field diff, unless the final state equals `expected`.
///
/// The recorder writes that checkpoint when recording starts if it has a `checkpointInterval`:
/// the replay then starts where the recording did, whatever the app did before the recorder
/// attached.
///
/// ```swift
/// try assertReplay(fixture: url, registry: .app, equals: expected)
/// ```
///
/// - Returns: The replayed final state, for further checks (also when it differs from
///   `expected`: that is recorded as an issue). `nil` when the replay diverged from one of the
///   log's checkpoints, which is recorded as an issue too: the replay stopped there and has no
///   final state.
/// - Throws: `ActionLogError` when the log cannot be read at all, or has no checkpoint before
///   its first entry (`ActionLogError.noInitialCheckpoint`).
@discardableResult
public func assertReplay<S: State & Equatable & Decodable>(
  fixture url: URL, registry: ActionLogRegistry<S>, equals expected: S,
  options: ActionReplayer<S>.Options = .init(),
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> S? {
  try assertReplayedState(
    url, registry: registry, options: options, equals: expected, sourceLocation: sourceLocation
  ) { try $0.replay(contentsOf: url) }
}

/// Replays a recorded log and records a test issue unless the view model projected from the
/// final state equals `expected`.
///
/// Use it to pin what a screen shows after a session without spelling out the whole state. A
/// session recorded from a started app replays from its first checkpoint instead, with
/// ``assertReplay(fixture:registry:matches:options:sourceLocation:)``.
///
/// - Returns: The replayed final state, for further checks (also when the view model differs,
///   or `init?(state:)` returns `nil`: that is recorded as an issue). `nil` when the replay
///   diverged from one of the log's checkpoints, which is recorded as an issue too: the
///   replay stopped there and has no final state.
/// - Throws: `ActionLogError` when the log cannot be read at all.
@discardableResult
public func assertReplay<S: State, ViewModel: ViewModelWithState>(
  fixture url: URL, registry: ActionLogRegistry<S>, initialState: S, matches expected: ViewModel,
  options: ActionReplayer<S>.Options = .init(),
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> S? where ViewModel.StateType == S {
  try assertReplayedViewModel(
    url, registry: registry, options: options, matches: expected, sourceLocation: sourceLocation
  ) { try $0.replay(contentsOf: url, initialState: initialState) }
}

/// Replays a recorded log from the state its first checkpoint records, and records a test issue
/// unless the view model projected from the final state equals `expected`.
///
/// As ``assertReplay(fixture:registry:equals:options:sourceLocation:)`` does for the whole
/// state, it starts where the recording did, whatever the app did before the recorder attached
/// (a navigator mirroring the route, a load at launch):
///
/// ```swift
/// try assertReplay(fixture: url, registry: .app, matches: OpenTodos(titles: ["write report"]))
/// ```
///
/// - Returns: The replayed final state, for further checks (also when the view model differs,
///   or `init?(state:)` returns `nil`: that is recorded as an issue). `nil` when the replay
///   diverged from one of the log's checkpoints, which is recorded as an issue too: the
///   replay stopped there and has no final state.
/// - Throws: `ActionLogError` when the log cannot be read at all, or has no checkpoint before
///   its first entry (`ActionLogError.noInitialCheckpoint`).
@discardableResult
public func assertReplay<S: State & Decodable, ViewModel: ViewModelWithState>(
  fixture url: URL, registry: ActionLogRegistry<S>, matches expected: ViewModel,
  options: ActionReplayer<S>.Options = .init(),
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> S? where ViewModel.StateType == S {
  try assertReplayedViewModel(
    url, registry: registry, options: options, matches: expected, sourceLocation: sourceLocation
  ) { try $0.replay(contentsOf: url) }
}

/// The body of both `assertReplay(…matches:…)`: replays with `replay`, then compares the view
/// models.
private func assertReplayedViewModel<S: State, ViewModel: ViewModelWithState>(
  _ url: URL, registry: ActionLogRegistry<S>, options: ActionReplayer<S>.Options,
  matches expected: ViewModel, sourceLocation: SourceLocation,
  _ replay: (ActionReplayer<S>) throws -> S
) throws -> S? where ViewModel.StateType == S {
  guard
    let state = try replayRecordingDivergence(
      url, registry: registry, options: options, sourceLocation: sourceLocation, replay)
  else { return nil }
  guard let actual = ViewModel(state: state) else {
    Issue.record(
      Comment(
        rawValue: "replaying \(url.lastPathComponent): \(ViewModel.self)(state:) returned nil "
          + "for the replayed state"),
      sourceLocation: sourceLocation)
    return state
  }
  if actual != expected {
    recordMismatch(
      "the replayed \(ViewModel.self) differs from the expected one", expected: expected,
      actual: actual, url: url, sourceLocation: sourceLocation)
  }
  return state
}

/// The body of both `assertReplay(…equals:…)`: replays with `replay`, then compares.
private func assertReplayedState<S: State & Equatable>(
  _ url: URL, registry: ActionLogRegistry<S>, options: ActionReplayer<S>.Options,
  equals expected: S, sourceLocation: SourceLocation,
  _ replay: (ActionReplayer<S>) throws -> S
) throws -> S? {
  guard
    let state = try replayRecordingDivergence(
      url, registry: registry, options: options, sourceLocation: sourceLocation, replay)
  else { return nil }
  if state != expected {
    recordMismatch(
      "the replayed state differs from the expected state", expected: expected, actual: state,
      url: url, sourceLocation: sourceLocation)
  }
  return state
}

/// Replays with `replay`, turning a checkpoint divergence into a test issue; other errors are
/// thrown.
private func replayRecordingDivergence<S: State>(
  _ url: URL, registry: ActionLogRegistry<S>, options: ActionReplayer<S>.Options,
  sourceLocation: SourceLocation, _ replay: (ActionReplayer<S>) throws -> S
) throws -> S? {
  do {
    return try replay(ActionReplayer(registry: registry, options: options))
  } catch ActionLogError.diverged(let divergence) {
    Issue.record(
      Comment(rawValue: "replaying \(url.lastPathComponent): \(divergence)"),
      sourceLocation: sourceLocation)
    return nil
  }
}

private func recordMismatch<T>(
  _ summary: String, expected: T, actual: T, url: URL, sourceLocation: SourceLocation
) {
  let lines = StateDiff.lines(from: expected, to: actual)
  Issue.record(
    Comment(
      rawValue: "replaying \(url.lastPathComponent): \(summary) (expected → replayed):\n  "
        + lines.joined(separator: "\n  ")),
    sourceLocation: sourceLocation)
}
