import ActionLog
import Foundation
import StateStore

/// An action-log entry as plain `Codable` code writes it: what the R1 and R2 floors encode and
/// decode, with the same keys and payload as the library's lines.
struct PlainLogEntry: Codable {
  let seq: Int
  let type: String
  let payload: ToggleTodo
}

/// The registry a user of the action log writes for the benchmark's updaters.
func makeRegistry() -> ActionLogRegistry<AppState> {
  ActionLogRegistry<AppState>().register(ToggleTodo.self)
}

/// A file in the temporary directory, unique to this process, removed when the runner goes.
final class TemporaryFile {
  let url: URL

  init(_ name: String) {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "store-bench-\(ProcessInfo.processInfo.processIdentifier)-\(name).jsonl")
    try? FileManager.default.removeItem(at: url)
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}

/// R1 through the library: a store with an `ActionRecorder` writing to a file, and
/// `entries` W1 toggles dispatched; one operation is the whole recording, reported per entry.
///
/// With `recordsDiffs`, R3: the same recording in diff mode, each entry with what it changed.
@MainActor
final class RecordingStoreRunner: Runner {
  let name: String
  let entries: Int
  let recordsDiffs: Bool
  let file: TemporaryFile
  var failures: [String] = []
  var finalState = AppState()

  init(entries: Int, recordsDiffs: Bool = false, name: String = "store") {
    self.entries = entries
    self.recordsDiffs = recordsDiffs
    self.name = name
    file = TemporaryFile(recordsDiffs ? "r3" : "r1")
  }

  var entriesPerOperation: Int { entries }

  func perform(_ operations: Int) {
    for _ in 0..<operations {
      try? FileManager.default.removeItem(at: file.url)
      let store = Store<AppState, Void>(initialState: AppState(todoCount: todoCount))
      do {
        let recorder = try ActionRecorder(
          store: store, registry: makeRegistry(), destination: .file(file.url),
          options: ActionRecorder.Options(bufferCapacity: 64 * 1024, recordsDiffs: recordsDiffs))
        var index = 0
        for _ in 0..<entries {
          store.dispatch(ToggleTodo(id: index))
          index += 1
          if index == todoCount { index = 0 }
        }
        try recorder.stop()
        if recorder.entriesRecorded != entries {
          failures.append("expected \(entries) entries recorded, got \(recorder.entriesRecorded)")
        }
      } catch {
        failures.append("recording failed: \(error)")
      }
      finalState = store.state
    }
  }

  func verify(operations: Int) -> [String] {
    var failures = self.failures
    failures += ToggleExpectation(todoCount: todoCount, operations: entries)
      .check(doneFlags: finalState.todos.map(\.done))
    do {
      let replayed = try ActionReplayer(registry: makeRegistry())
        .replay(contentsOf: file.url, initialState: AppState(todoCount: todoCount))
      if replayed != finalState { failures.append("replaying the recorded file differs") }
    } catch {
      failures.append("the recorded file does not replay: \(error)")
    }
    if recordsDiffs { failures += checkLastDiff() }
    return failures
  }

  /// Checks that the last entry's diff toggles the last todo W1 toggled.
  private func checkLastDiff() -> [String] {
    guard let data = try? Data(contentsOf: file.url),
      let last = data.split(separator: 0x0A).last,
      let text = String(bytes: last, encoding: .utf8)
    else { return ["the diff log cannot be read"] }
    let index = (entries - 1) % todoCount
    let todo = finalState.todos[index]
    // The todo is named by its id (format version 2), wherever it stands.
    let expected =
      "\"diff\":[{\"op\":\"replace\",\"path\":\"/todos[id=\(todo.id)]/done\","
      + "\"old\":\(!todo.done),\"value\":\(todo.done)}]"
    return text.contains(expected) ? [] : ["the last entry's diff is not \(expected): \(text)"]
  }
}

/// R1's floor: bare `JSONEncoder` on the same entries into a buffer, with the plain mutation.
@MainActor
final class EncodingFloor: Runner {
  let name = "bare encode floor"
  let entries: Int
  var state = PlainState(todoCount: todoCount)
  var bytes = 0
  var failures: [String] = []

  init(entries: Int) {
    self.entries = entries
  }

  var entriesPerOperation: Int { entries }

  func perform(_ operations: Int) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for _ in 0..<operations {
      state = PlainState(todoCount: todoCount)
      var buffer = Data()
      buffer.reserveCapacity(64 * 1024)
      bytes = 0
      var index = 0
      for sequence in 1...entries {
        toggleTodo(&state, at: index)
        do {
          let entry = PlainLogEntry(
            seq: sequence, type: "ToggleTodo", payload: ToggleTodo(id: index))
          buffer.append(try encoder.encode(entry))
          buffer.append(0x0A)
        } catch {
          failures.append("encoding failed: \(error)")
        }
        // A buffered writer hands full buffers on; the floor just reuses its buffer.
        if buffer.count >= 64 * 1024 {
          bytes += buffer.count
          buffer.removeAll(keepingCapacity: true)
        }
        index += 1
        if index == todoCount { index = 0 }
      }
      bytes += buffer.count
    }
  }

  func verify(operations: Int) -> [String] {
    var failures = self.failures
    failures += ToggleExpectation(todoCount: todoCount, operations: entries)
      .check(doneFlags: state.todos.map(\.done))
    if bytes < entries * 40 { failures.append("only \(bytes) bytes encoded for \(entries)") }
    return failures
  }
}

/// R2 through the library: `ActionReplayer.replay(contentsOf:initialState:)` on a file of
/// `entries` W1 toggles recorded once by an `ActionRecorder` before timing.
@MainActor
final class ReplayStoreRunner: Runner {
  let name = "store"
  let entries: Int
  let file: TemporaryFile
  var failures: [String] = []
  var finalState = AppState()

  init(entries: Int, file: TemporaryFile) {
    self.entries = entries
    self.file = file
  }

  var entriesPerOperation: Int { entries }

  func perform(_ operations: Int) {
    let replayer = ActionReplayer(registry: makeRegistry())
    for _ in 0..<operations {
      do {
        finalState = try replayer.replay(
          contentsOf: file.url, initialState: AppState(todoCount: todoCount))
      } catch {
        failures.append("replay failed: \(error)")
      }
    }
  }

  func verify(operations: Int) -> [String] {
    failures
      + ToggleExpectation(todoCount: todoCount, operations: entries)
      .check(doneFlags: finalState.todos.map(\.done))
  }
}

/// R2's floor: read the same file, decode each entry with bare `JSONDecoder`, apply it plainly.
@MainActor
final class DecodingFloor: Runner {
  let name = "bare decode floor"
  let entries: Int
  let file: TemporaryFile
  var state = PlainState(todoCount: todoCount)
  var decoded = 0
  var failures: [String] = []

  init(entries: Int, file: TemporaryFile) {
    self.entries = entries
    self.file = file
  }

  var entriesPerOperation: Int { entries }

  func perform(_ operations: Int) {
    let decoder = JSONDecoder()
    for _ in 0..<operations {
      state = PlainState(todoCount: todoCount)
      decoded = 0
      do {
        decoded = try replayPlainly(Data(contentsOf: file.url), into: &state, decoder: decoder)
      } catch {
        failures.append("decoding failed: \(error)")
      }
    }
  }

  func verify(operations: Int) -> [String] {
    var failures = self.failures
    if decoded != entries { failures.append("decoded \(decoded) entries of \(entries)") }
    failures += ToggleExpectation(todoCount: todoCount, operations: entries)
      .check(doneFlags: state.todos.map(\.done))
    return failures
  }
}

/// Replays a log by hand: splits `data` into lines, skips the header, decodes each entry with
/// bare `JSONDecoder` and applies it with the plain mutation; returns how many it applied.
///
/// - Complexity: O(size of `data`).
func replayPlainly(_ data: Data, into state: inout PlainState, decoder: JSONDecoder) throws -> Int {
  var lines = data.split(separator: 0x0A)[...]
  // The header line, then one entry per line.
  _ = lines.popFirst()
  var decoded = 0
  for line in lines {
    let entry = try decoder.decode(PlainLogEntry.self, from: line)
    toggleTodo(&state, at: entry.payload.id)
    decoded += 1
  }
  return decoded
}

/// Records the file R2 replays: `entries` toggles through a store and an `ActionRecorder`.
@MainActor
func recordReplayFile(entries: Int) -> TemporaryFile {
  let file = TemporaryFile("r2")
  let store = Store<AppState, Void>(initialState: AppState(todoCount: todoCount))
  if let recorder = try? ActionRecorder(
    store: store, registry: makeRegistry(), destination: .file(file.url), options: .buffered)
  {
    for operation in 0..<entries {
      store.dispatch(ToggleTodo(id: operation % todoCount))
    }
    try? recorder.stop()
  }
  return file
}
