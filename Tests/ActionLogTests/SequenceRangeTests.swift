import ActionLog
import Foundation
import StateStore
import Testing

private let header = #"{"format":"statestore-action-log","version":1}"#

@Suite("Sequence numbers read from a log are range-checked")
@MainActor
struct SequenceRangeTests {
  @Test("A negative, zero or maximal seq is a malformed line, named by its number")
  func outOfRangeSequences() throws {
    for seq in ["-1", "0", "\(Int.min)", "\(Int.max)"] {
      let text =
        header + "\n" + #"{"seq":"# + seq + #","type":"AddTodo","payload":{"title":"a"}}"#
        + "\n"
      do {
        _ = try ActionReplayer(registry: .todos()).replay(
          Data(text.utf8), initialState: TodoState())
        Issue.record("seq \(seq) was accepted")
      } catch let error as ActionLogError {
        guard case .malformedLine(2, let reason) = error else {
          Issue.record("seq \(seq): \(error)")
          continue
        }
        #expect(reason.contains("seq \(seq) is outside 1...\(Int.max - 1)"))
      }
    }
  }

  @Test("A negative checkpoint number is a malformed line")
  func negativeCheckpoint() {
    let text = header + "\n" + #"{"checkpoint":-3,"state":{}}"# + "\n"
    #expect(throws: ActionLogError.self) {
      try ActionReplayer(registry: .todos()).replay(Data(text.utf8), initialState: TodoState())
    }
  }

  @Test("Appending to a log whose last seq is out of range is refused, naming the line")
  func appendingAfterAHugeSeq() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("huge.jsonl")
    let text =
      header + "\n" + #"{"seq":1,"type":"AddTodo","payload":{"title":"a"}}"# + "\n"
      + #"{"seq":-9,"type":"AddTodo","payload":{"title":"b"}}"# + "\n"
    try Data(text.utf8).write(to: url)
    let store = Store<TodoState, Void>()
    #expect(
      throws: ActionLogError.malformedLine(
        line: 3, reason: "seq -9 is outside 1...\(Int.max - 1), so no entry can follow it")
    ) {
      _ = try ActionRecorder(store: store, registry: .todos(), destination: .file(url))
    }
    #expect(try Data(contentsOf: url) == Data(text.utf8), "the log is left as it was")
  }

  @Test("A recorder that reaches the last number reports it and never traps")
  func numberingRunsOut() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("last.jsonl")
    let last = Int.max - 1
    let text =
      header + "\n" + #"{"seq":"# + "\(last - 1)"
      + #","type":"AddTodo","payload":{"title":"a"}}"# + "\n"
    try Data(text.utf8).write(to: url)
    let store = Store<TodoState, Void>()
    let recorder = try ActionRecorder(store: store, registry: .todos(), destination: .file(url))
    var errors: [ActionLogError] = []
    recorder.onError = { errors.append($0) }
    store.dispatch(AddTodo(title: "b"))
    store.dispatch(AddTodo(title: "c"))
    try recorder.stop()
    #expect(recorder.lastSequence == last)
    #expect(errors.count == 1)
    #expect(errors.first?.description.contains("numbering is used up") == true)
    let summary = try ActionReplayer(registry: .todos())
      .replaySummary(contentsOf: url, initialState: TodoState())
    #expect(summary.lastSequence == last)
  }
}
