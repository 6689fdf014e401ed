import ActionLog
import Foundation
import StateStore
import Testing

private let header = #"{"format":"statestore-action-log","version":1}"#
private let first = #"{"seq":1,"type":"AddTodo","payload":{"title":"a"}}"#
private let second = #"{"seq":2,"type":"AddTodo","payload":{"title":"b"}}"#

@Suite("JSON Lines: lines, torn tails and headers")
struct JSONLinesTests {
  @Test("The torn tail is what follows the last newline")
  func tornTailAfterLastNewline() {
    let bytes = Array("ab\ncd\nef".utf8)
    let (lines, tornStart) = JSONLines.readable(bytes)
    #expect(Array(lines) == [0..<2, 3..<5])
    #expect(tornStart == 6)
    #expect(JSONLines.readable(Array("ab\n".utf8)).tornStart == nil)
    #expect(JSONLines.readable([]).lines.isEmpty)
  }

  @Test("A last line of NUL bytes followed only by NUL bytes is a torn tail (a power cut)")
  func nulTail() {
    for tail: [UInt8] in [[0, 0, 0x0A], [0, 0x0A, 0, 0], [0, 0x0A]] {
      let bytes = Array("ab\n".utf8) + tail
      let (lines, tornStart) = JSONLines.readable(bytes)
      #expect(Array(lines) == [0..<2], "tail \(tail)")
      #expect(tornStart == 3, "tail \(tail)")
    }
    // Only the last line can be torn: an earlier NUL line, or an empty line after one, is not
    // what one cut-short write leaves.
    let twoNULLines = JSONLines.readable(Array("ab\n".utf8) + [0, 0x0A, 0, 0x0A])
    #expect(Array(twoNULLines.lines) == [0..<2, 3..<4])
    #expect(twoNULLines.tornStart == 5)
    let emptyAfter = JSONLines.readable(Array("ab\n".utf8) + [0, 0x0A, 0x0A])
    #expect(Array(emptyAfter.lines) == [0..<2, 3..<4, 5..<5])
    #expect(emptyAfter.tornStart == nil)
  }

  @Test("A NUL line with anything after it stays a line, for its decoder to report as damage")
  func nulLineInTheMiddle() {
    let bytes: [UInt8] = [0, 0, 0x0A] + Array("ab\n".utf8)
    let (lines, tornStart) = JSONLines.readable(bytes)
    #expect(Array(lines) == [0..<2, 3..<5])
    #expect(tornStart == nil)
    #expect(JSONLines.readable([0, 0x0A, 0x61]).tornStart == 2)
    #expect(JSONLines.readable([0, 0x0A, 0x61]).lines.count == 1)
  }

  @Test("The header is written with its fields in order and checked on read")
  func headerRoundTrip() throws {
    #expect(ActionLogHeader.text() == header)
    let text = ActionLogHeader.text(["app": "todo-cli", "note": "a \"b\"\n"])
    #expect(
      text == #"{"format":"statestore-action-log","version":1,"app":"todo-cli","note":"a \"b\"\n"}"#
    )
    #expect(try ActionLogHeader.validated(Data(text.utf8), line: 1).version == 1)
    #expect(try ActionLogHeader.validated(Data(text.utf8), line: 1).version == 1)
    let second = #"{"format":"statestore-action-log","version":2}"#
    #expect(ActionLogHeader.text(version: 2) == second)
    #expect(try ActionLogHeader.validated(Data(second.utf8), line: 1).version == 2)
    #expect(throws: ActionLogError.unsupportedVersion(line: 3, version: 3)) {
      try ActionLogHeader.validated(
        Data(#"{"format":"statestore-action-log","version":3}"#.utf8), line: 3)
    }
  }

  @Test("JSONText escapes quotes, backslashes and controls, and nothing else")
  func escaping() {
    #expect(JSONText.quoted("plain ünïcödé 🎉") == "\"plain ünïcödé 🎉\"")
    #expect(JSONText.quoted("a\"b\\c\nd\re\tf\u{1}g") == #""a\"b\\c\nd\re\tf\u0001g""#)
    var output = "x"
    JSONText.appendEscaped("\u{1f}", to: &output)
    #expect(output == #"x\u001f"#)
  }

  @Test("Replay treats a NUL last line as torn: strict replay names it, lenient replay skips it")
  func replayNULTail() throws {
    var bytes = Array([header, first, second].joined(separator: "\n").utf8) + [0x0A]
    bytes += [0, 0, 0, 0x0A, 0, 0]
    let strict = ActionReplayer(registry: .todos())
    #expect(throws: ActionLogError.tornLastLine(line: 4)) {
      try strict.replay(Data(bytes), initialState: TodoState())
    }
    let summary = try ActionReplayer(registry: .todos(), options: .lenient)
      .replaySummary(Data(bytes), initialState: TodoState())
    #expect(summary.entriesApplied == 2)
    #expect(summary.tornLastLine == 4)
  }

  @Test("Replay reports a NUL line in the middle of a log as a malformed line, even leniently")
  func replayNULInTheMiddle() {
    let bytes =
      Array((header + "\n" + first + "\n").utf8) + [0, 0, 0x0A] + Array((second + "\n").utf8)
    let lenient = ActionReplayer(registry: .todos(), options: .lenient)
    #expect {
      try lenient.replay(Data(bytes), initialState: TodoState())
    } throws: { error in
      (error as? ActionLogError)?.line == 3
    }
  }

  @Test("Appending after a power cut cuts the NUL tail and goes on from the last entry")
  @MainActor
  func appendCutsNULTail() throws {
    let session: [any StateUpdater<TodoState>] = [AddTodo(title: "a"), AddTodo(title: "b")]
    let text = try Self.record(
      ToggleTodo(id: 2), from: applied(session),
      into: try recordedLog(session) + [0, 0, 0, 0, 0x0A, 0, 0])
    #expect(text.count == 4)
    #expect(text[3] == #"{"seq":3,"type":"ToggleTodo","payload":{"id":2}}"#)
  }

  @Test("Recording into a file a power cut left as NUL bytes starts a new log")
  @MainActor
  func appendToNULFile() throws {
    let text = try Self.record(
      AddTodo(title: "a"), from: TodoState(), into: Data([0, 0, 0, 0x0A, 0]))
    #expect(text.count == 2)
    #expect(text[0].hasPrefix(#"{"format":"statestore-action-log","version":1,"state":"#))
  }

  /// Records `updater`, dispatched to a store at `initialState`, into a file that held `bytes`,
  /// checks that the file replays to the store's state, and returns the file's lines.
  @MainActor
  static func record(
    _ updater: any StateUpdater<TodoState>, from initialState: TodoState, into bytes: Data
  ) throws -> [String] {
    let directory = try TemporaryDirectory()
    let url = directory.file("log.jsonl")
    try bytes.write(to: url)
    let store = Store<TodoState, Void>(initialState: initialState)
    let recorder = try ActionRecorder(store: store, registry: .todos(), destination: .file(url))
    store.dispatch(updater)
    try recorder.stop()
    let replayed = try ActionReplayer(registry: .todos()).replay(
      contentsOf: url, initialState: .init())
    #expect(replayed == store.state)
    return lines(of: try Data(contentsOf: url))
  }
}
