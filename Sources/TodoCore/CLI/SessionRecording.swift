import ActionLog
import Foundation

/// `--record <file>`: appends the updaters one run dispatches to an action log, through the
/// library's ``ActionRecorder``, with times from the app's clock and in diff mode: each entry
/// says when it was applied and what it changed, and a run's
/// first entry follows a checkpoint of the state it started from, so `statestore-inspect` shows
/// the state after every entry.
///
/// Several runs can record into one file, one after another or at once: the recorder checks
/// its header and numbers each entry after those already in the file. The runner loads the store before recording starts, so the log holds the user's
/// changes, not the load.
@MainActor
final class SessionRecording {
  private let recorder: ActionRecorder
  private var failure: ActionLogError?

  private init(recorder: ActionRecorder) {
    self.recorder = recorder
  }

  /// Starts recording `store` into the log at `path`, or returns `nil` when `path` is `nil`.
  ///
  /// - Throws: ``ActionLogError`` if the file cannot be opened or is not a todo-cli action log.
  static func start(for store: TodoStore, at path: String?) throws -> SessionRecording? {
    guard let path else { return nil }
    let recorder = try ActionRecorder(
      store: store, registry: TodoActionLog.makeRegistry(),
      destination: .file(URL(fileURLWithPath: path)),
      options: .init(recordsTime: true, recordsDiffs: true, clock: store.dependencies.clock.now))
    let recording = SessionRecording(recorder: recorder)
    recorder.onError = { [weak recording] error in
      if recording?.failure == nil { recording?.failure = error }
    }
    return recording
  }

  /// Stops recording and makes what was recorded durable.
  ///
  /// - Throws: The first recording error, if any.
  func finish() throws {
    try recorder.synchronize()
    try recorder.stop()
    if let failure { throw failure }
  }

  /// Stops recording without reporting errors: for runs that already failed.
  func stop() {
    try? recorder.stop()
  }
}
