import ActionLog
import Foundation
import StateStore
import Testing

private let header = #"{"format":"statestore-action-log","version":1}"#

/// Replays `text` and returns the error it throws, or `nil` if it replays.
private func replayError(
  _ text: String, options: ActionReplayer<TodoState>.Options = .init()
) -> ActionLogError? {
  do {
    _ = try ActionReplayer(registry: .todos(), options: options)
      .replay(Data(text.utf8), initialState: TodoState())
    return nil
  } catch let error as ActionLogError {
    return error
  } catch {
    Issue.record("not an ActionLogError: \(error)")
    return nil
  }
}

@Suite("Bad input")
struct BadInputTests {
  @Test("An empty log has no header")
  func emptyLog() {
    #expect(replayError("") == .missingHeader)
    #expect(replayError("\n  \n") == .missingHeader)
  }

  @Test("A first line that is not the header is rejected on line 1")
  func wrongHeader() throws {
    let entryFirst = replayError(#"{"seq":1,"type":"AddTodo","payload":{"title":"a"}}"# + "\n")
    guard case .invalidHeader(1, let reason) = entryFirst else {
      Issue.record("got \(String(describing: entryFirst))")
      return
    }
    #expect(reason.contains("no \"format\" key"))
    let otherFormat = replayError(#"{"format":"something-else","version":1}"# + "\n")
    #expect(otherFormat?.line == 1)
    #expect(otherFormat?.description.contains("something-else") == true)
    #expect(replayError("not json\n")?.line == 1)
    #expect(replayError(#"{"format":"statestore-action-log"}"# + "\n")?.line == 1)
    #expect(replayError(#"{"format":"statestore-action-log","version":0}"# + "\n")?.line == 1)
  }

  @Test("A newer version is refused with its number")
  func newerVersion() {
    let error = replayError(#"{"format":"statestore-action-log","version":3}"# + "\n")
    #expect(error == .unsupportedVersion(line: 1, version: 3))
    #expect(error?.description.contains("version 3 is not supported") == true)
    #expect(error?.description.contains("reads versions up to 2") == true)
  }

  @Test("A malformed line names its line number")
  func malformedLine() {
    let text = [
      header, #"{"seq":1,"type":"AddTodo","payload":{"title":"a"}}"#, "{not json",
      #"{"seq":2,"type":"AddTodo","payload":{"title":"b"}}"#,
    ].joined(separator: "\n")
    guard case .malformedLine(3, _) = replayError(text) else {
      Issue.record("expected a malformed line 3, got \(String(describing: replayError(text)))")
      return
    }
  }

  @Test("Lines that are JSON but not entries are malformed, each with its line")
  func wrongShapes() {
    let cases: [(String, String)] = [
      ("[1,2]", "not a JSON object"),
      (#"{"hello":1}"#, "neither an entry"),
      (#"{"seq":"one","type":"AddTodo","payload":{}}"#, "seq"),
      (#"{"seq":1,"payload":{}}"#, "missing key \"type\""),
      (#"{"seq":1,"type":"AddTodo"}"#, "missing \"payload\""),
      (#"{"seq":1,"type":"AddTodo","cause":5,"payload":{"title":"a"}}"#, "cause"),
    ]
    for (line, expected) in cases {
      let error = replayError(header + "\n" + line + "\n")
      guard case .malformedLine(2, let reason) = error else {
        Issue.record("\(line): expected a malformed line 2, got \(String(describing: error))")
        continue
      }
      #expect(reason.contains(expected), "\(line): \(reason)")
    }
  }

  @Test("An unknown type is named, with its line")
  func unknownType() {
    let text = header + "\n" + #"{"seq":1,"type":"LaunchRocket","payload":{}}"# + "\n"
    let error = replayError(text)
    #expect(error == .unknownType(line: 2, name: "LaunchRocket"))
    #expect(error?.description.contains("register(LaunchRocket.self)") == true)
  }

  @Test("A payload that does not decode gives the decoding path")
  func undecodablePayload() {
    let missing = replayError(header + "\n" + #"{"seq":1,"type":"AddTodo","payload":{}}"#)
    #expect(
      missing
        == .undecodablePayload(
          line: 2, type: "AddTodo", path: "payload", reason: "missing key \"title\""))
    let wrongType = replayError(
      header + "\n" + #"{"seq":1,"type":"ToggleTodo","payload":{"id":"x"}}"# + "\n")
    guard case .undecodablePayload(2, "ToggleTodo", "payload.id", _) = wrongType else {
      Issue.record("got \(String(describing: wrongType))")
      return
    }
    let badEnum = replayError(
      header + "\n" + #"{"seq":1,"type":"SetFilter","payload":{"filter":"weird"}}"# + "\n")
    #expect(badEnum?.line == 2)
  }

  @Test("Sequence numbers must increase")
  func outOfOrder() {
    let text = [
      header, #"{"seq":2,"type":"AddTodo","payload":{"title":"a"}}"#,
      #"{"seq":2,"type":"AddTodo","payload":{"title":"b"}}"#,
    ].joined(separator: "\n")
    #expect(replayError(text) == .outOfOrder(line: 3, sequence: 2, previous: 2))
  }

  @Test("An unrecorded marker stops the replay with the type and reason")
  func unrecordedMarker() {
    let text = header + "\n" + #"{"seq":1,"unrecorded":"App.Mystery","reason":"not registered"}"#
    #expect(
      replayError(text)
        == .unrecordedEntry(line: 2, sequence: 1, type: "App.Mystery", reason: "not registered"))
  }

  @Test("Unknown keys are ignored, on the header and on entries")
  func unknownKeysIgnored() throws {
    let text = [
      #"{"format":"statestore-action-log","version":1,"app":"todo","extra":{"a":[1]}}"#,
      #"{"seq":1,"type":"AddTodo","payload":{"title":"a","future":true},"origin":"cli"}"#,
    ].joined(separator: "\n")
    let state = try ActionReplayer(registry: .todos())
      .replay(Data(text.utf8), initialState: TodoState())
    #expect(state.todos.elements.map(\.title) == ["a"])
  }

  @Test("A torn last line is reported; lenient replay keeps the entries before it")
  func tornLastLine() throws {
    let complete = [
      header, #"{"seq":1,"type":"AddTodo","payload":{"title":"a"}}"#,
      #"{"seq":2,"type":"AddTodo","payload":{"title":"b"}}"#,
    ].joined(separator: "\n")
    let torn = complete + "\n" + #"{"seq":3,"type":"AddTo"#
    #expect(replayError(torn) == .tornLastLine(line: 4))
    let summary = try ActionReplayer(registry: .todos(), options: .lenient)
      .replaySummary(Data(torn.utf8), initialState: TodoState())
    #expect(summary.finalState.todos.elements.map(\.title) == ["a", "b"])
    #expect(summary.tornLastLine == 4)
    // A complete last line without its newline is not torn.
    let noNewline = try ActionReplayer(registry: .todos())
      .replaySummary(Data(complete.utf8), initialState: TodoState())
    #expect(noNewline.entriesApplied == 2)
    #expect(noNewline.tornLastLine == nil)
  }

  @Test("An invalid line in the middle is not excused by the lenient mode")
  func lenientOnlyForLastLine() {
    let text = header + "\n{\"seq\":1,\n" + #"{"seq":2,"type":"AddTodo","payload":{"title":"b"}}"#
    guard case .malformedLine(2, _) = replayError(text, options: .lenient) else {
      Issue.record("got \(String(describing: replayError(text, options: .lenient)))")
      return
    }
  }

  @Test("A missing file is reported with its path")
  func missingFile() {
    let url = URL(fileURLWithPath: "/nonexistent/actionlog/missing.jsonl")
    #expect(throws: ActionLogError.self) {
      try ActionReplayer(registry: .todos()).replay(contentsOf: url, initialState: TodoState())
    }
    do {
      _ = try ActionReplayer(registry: .todos()).replay(contentsOf: url, initialState: TodoState())
    } catch {
      #expect(String(describing: error).contains("/nonexistent/actionlog/missing.jsonl"))
    }
  }

  @Test("A registry with one name for two types is refused")
  func conflictingRegistry() {
    let registry = ActionLogRegistry<TodoState>()
      .register(AddTodo.self, name: "x")
      .register(ToggleTodo.self, name: "x")
    #expect(throws: ActionLogError.self) {
      try ActionReplayer(registry: registry)
        .replay(Data((header + "\n").utf8), initialState: TodoState())
    }
  }

  @Test("Every truncation of a log gives a state or an error, never a crash")
  @MainActor
  func truncationFuzz() throws {
    let log = try recordedLog(sampleSession(), options: .init(checkpointInterval: 3))
    let full = applied(sampleSession())
    let lenient = ActionReplayer(registry: .todos(), options: .lenient)
    let strict = ActionReplayer(registry: .todos())
    var outcomes = (states: 0, errors: 0)
    for length in 0...log.count {
      let prefix = log.prefix(length)
      for replayer in [strict, lenient] {
        do {
          let state = try replayer.replay(prefix, initialState: TodoState())
          outcomes.states += 1
          if length == log.count { #expect(state == full) }
        } catch is ActionLogError {
          outcomes.errors += 1
        }
      }
    }
    #expect(outcomes.states > log.count)
    #expect(outcomes.errors > 0)
  }

  @Test("Corrupting any single byte gives a state or an error, never a crash")
  @MainActor
  func byteCorruptionFuzz() throws {
    let log = try recordedLog(sampleSession(), options: .init(checkpointInterval: 4))
    let replayer = ActionReplayer(registry: .todos())
    var errors = 0
    for offset in 0..<log.count {
      for replacement: UInt8 in [0x22, 0x0A, 0xFF] {
        var corrupted = log
        corrupted[corrupted.startIndex + offset] = replacement
        do {
          _ = try replayer.replay(corrupted, initialState: TodoState())
        } catch is ActionLogError {
          errors += 1
        }
      }
    }
    #expect(errors > log.count)
  }
}
