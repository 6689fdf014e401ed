import ActionLog
import Foundation
import StateStore
import Testing

/// Nanoseconds per iteration of `body`, run `count` times.
private func nanoseconds(per count: Int, _ body: () throws -> Void) rethrows -> Double {
  let clock = ContinuousClock()
  let elapsed = try clock.measure { try body() }
  let (seconds, attoseconds) = elapsed.components
  return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(count)
}

@Suite("Recording throughput")
@MainActor
struct RecordingThroughputTests {
  private static let count = 20_000

  private func updaters(count: Int = Self.count) -> [any StateUpdater<TodoState>] {
    (0..<count).map { index -> any StateUpdater<TodoState> in
      index % 2 == 0 ? ToggleTodo(id: index % 500 + 1) : AddLabel(label: "l\(index % 9)")
    }
  }

  private func state(todos: Int) -> TodoState {
    applied((0..<todos).map { AddTodo(title: "todo \($0)") })
  }

  /// Records `updaters` dispatched on a store holding `initialState`, in ns per entry.
  private func recordingCost(
    _ updaters: [any StateUpdater<TodoState>], initialState: TodoState,
    destination: ActionRecorder.Destination, options: ActionRecorder.Options
  ) throws -> Double {
    let store = Store<TodoState, Void>(initialState: initialState)
    let recorder = try ActionRecorder(
      store: store, registry: .todos(), destination: destination, options: options)
    let cost = try nanoseconds(per: updaters.count) {
      for updater in updaters { store.dispatch(updater) }
      try recorder.flush()
    }
    try recorder.stop()
    return cost
  }

  @Test("Recording costs the same per entry whatever the size of the state")
  func costIndependentOfStateSize() throws {
    let updaters = updaters(count: 2000)
    let small = try recordedLog(updaters, initialState: state(todos: 500))
    let large = try recordedLog(updaters, initialState: state(todos: 5000))
    // The bytes written per entry are the updater's alone: the same log for both stores.
    #expect(lines(of: small).dropFirst() == lines(of: large).dropFirst())
  }

  @Test(
    "Measure recording and replay throughput (ACTIONLOG_MEASURE=1 swift test --filter RecordingThroughputTests)",
    .enabled(if: ProcessInfo.processInfo.environment["ACTIONLOG_MEASURE"] != nil))
  func measure() throws {
    let updaters = updaters()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var bytes = 0
    let bare = try nanoseconds(per: updaters.count) {
      for updater in updaters {
        if let toggle = updater as? ToggleTodo {
          bytes += try encoder.encode(toggle).count
        } else if let label = updater as? AddLabel {
          bytes += try encoder.encode(label).count
        }
      }
    }
    var writer = ActionLogWriter(registry: .todos())
    let written = try nanoseconds(per: updaters.count) {
      for updater in updaters { try writer.append(updater) }
    }
    let directory = try TemporaryDirectory()
    var dispatchOnly = 0.0
    do {
      let store = Store<TodoState, Void>(initialState: state(todos: 500))
      dispatchOnly = nanoseconds(per: updaters.count) {
        for updater in updaters { store.dispatch(updater) }
      }
    }
    let memorySmall = try recordingCost(
      updaters, initialState: state(todos: 500), destination: .memory, options: .init())
    let memoryLarge = try recordingCost(
      updaters, initialState: state(todos: 20_000), destination: .memory, options: .init())
    let fileBuffered = try recordingCost(
      updaters, initialState: state(todos: 500),
      destination: .file(directory.file("buffered.jsonl")), options: .buffered)
    let fileUnbuffered = try recordingCost(
      updaters, initialState: state(todos: 500),
      destination: .file(directory.file("unbuffered.jsonl")), options: .init())
    // Diff mode encodes the whole state per entry: fewer entries, so the run stays short.
    let fewer = Array(updaters.prefix(1000))
    let plainSmall = try recordingCost(
      fewer, initialState: state(todos: 50), destination: .memory, options: .init())
    let diffsSmall = try recordingCost(
      fewer, initialState: state(todos: 50), destination: .memory,
      options: .init(recordsDiffs: true))
    let plainMedium = try recordingCost(
      fewer, initialState: state(todos: 500), destination: .memory, options: .init())
    let diffsMedium = try recordingCost(
      fewer, initialState: state(todos: 500), destination: .memory,
      options: .init(recordsDiffs: true))
    let replayer = ActionReplayer(registry: .todos())
    let replay = try nanoseconds(per: updaters.count) {
      _ = try replayer.replay(writer.data, initialState: state(todos: 500))
    }
    let report = """
      action log throughput, \(updaters.count) entries (\(bytes / updaters.count) payload bytes each):
        bare JSONEncoder of the updaters     \(Int(bare)) ns/entry
        ActionLogWriter.append               \(Int(written)) ns/entry
        dispatch, no recorder                \(Int(dispatchOnly)) ns/entry
        dispatch + record, memory, 500 todos \(Int(memorySmall)) ns/entry
        dispatch + record, memory, 20k todos \(Int(memoryLarge)) ns/entry
        dispatch + record, file, buffered    \(Int(fileBuffered)) ns/entry \
      (\(Int(1e9 / fileBuffered)) entries/s)
        dispatch + record, file, unbuffered  \(Int(fileUnbuffered)) ns/entry
        replay from Data                     \(Int(replay)) ns/entry (\(Int(1e9 / replay)) entries/s)
        diff mode, memory, 50 todos          \(Int(diffsSmall)) ns/entry, \
      \(String(format: "%.1f", diffsSmall / plainSmall))x without (\(Int(plainSmall)))
        diff mode, memory, 500 todos         \(Int(diffsMedium)) ns/entry, \
      \(String(format: "%.1f", diffsMedium / plainMedium))x without (\(Int(plainMedium)))
      """
    print(report)
    #expect(memoryLarge < memorySmall * 3)
  }
}
