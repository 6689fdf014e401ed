import ActionLog
import Foundation
import StateStore
import Testing

@Suite("Diff mode: each entry carries what it changed in the encoded state")
@MainActor
struct DiffModeTests {
  /// Records `session` in diff mode into memory and returns the log's lines, parsed.
  private func recordWithDiffs(
    _ session: [any StateUpdater<TodoState>], checkpointInterval: Int? = nil
  ) throws -> (data: Data, lines: [JSONValue]) {
    let store = Store<TodoState, Void>(initialState: TodoState())
    let recorder = try ActionRecorder(
      store: store, registry: .todos(), destination: .memory,
      options: .init(checkpointInterval: checkpointInterval, recordsDiffs: true))
    for updater in session { store.dispatch(updater) }
    let data = recorder.recordedData
    let lines = try data.split(separator: 0x0A).map { try JSONParser.parse($0) }
    return (data, lines)
  }

  @Test("The checkpoint and the diffs rebuild the state after every entry")
  func rebuildsEveryState() throws {
    let (data, lines) = try recordWithDiffs(sampleSession())
    #expect(lines[1]["checkpoint"] == .number("0"), "diff mode starts with a checkpoint")
    var state = try #require(lines[1]["state"])
    let timeline = try ActionReplayer(registry: .todos())
      .timeline(data, initialState: TodoState(), snapshotInterval: 1)
    var rebuilt = 0
    for line in lines.dropFirst(2) {
      let sequence = try #require(line["seq"]?.intValue)
      let diff = try #require(line["diff"], "entry \(sequence) has a diff")
      guard case .array(let operations) = diff else {
        Issue.record("diff is not an array")
        return
      }
      try JSONChange.apply(operations.map { try JSONChange(json: $0) }, to: &state)
      let decoded = try JSONDecoder().decode(TodoState.self, from: Data(state.text().utf8))
      #expect(decoded == timeline.state(afterEntry: sequence), "after entry \(sequence)")
      rebuilt += 1
    }
    #expect(rebuilt == sampleSession().count)
  }

  @Test("A diff names only what the entry changed")
  func diffIsStructural() throws {
    let (_, lines) = try recordWithDiffs([AddTodo(title: "milk"), ToggleTodo(id: 1)])
    #expect(
      lines[2]["diff"]?.text()
        == #"[{"op":"replace","path":"/nextID","old":1,"value":2},"#
        + #"{"op":"add","path":"/todos[id=1]","index":0,"#
        + #""value":{"done":false,"id":1,"title":"milk"}}]"#)
    #expect(
      lines[3]["diff"]?.text()
        == #"[{"op":"replace","path":"/todos[id=1]/done","old":false,"value":true}]"#)
  }

  @Test("A diff-mode log replays and verifies its checkpoints as any log does")
  func backwardCompatible() throws {
    let (data, _) = try recordWithDiffs(sampleSession(), checkpointInterval: 3)
    let summary = try ActionReplayer(registry: .todos())
      .replaySummary(data, initialState: TodoState())
    var expected = TodoState()
    for updater in sampleSession() { updater.updateState(&expected) }
    #expect(summary.finalState == expected)
    #expect(summary.entriesApplied == sampleSession().count)
    #expect(summary.checkpointsVerified == 4, "0, 3, 6 and 9")
  }

  @Test("Without the option, entries carry no diff and no checkpoint is written")
  func offByDefault() throws {
    let store = Store<TodoState, Void>(initialState: TodoState())
    let recorder = try ActionRecorder(store: store, registry: .todos(), destination: .memory)
    store.dispatch(AddTodo(title: "a"))
    let text = String(decoding: recorder.recordedData, as: UTF8.self)
    #expect(!text.contains("\"diff\""))
    #expect(!text.contains("\"checkpoint\""))
  }

  @Test("A diff-mode recording that applies nothing writes nothing; the base goes with entry 1")
  func baseCheckpointIsLazy() throws {
    let store = Store<TodoState, Void>(initialState: TodoState())
    let recorder = try ActionRecorder(
      store: store, registry: .todos(), destination: .memory,
      options: .init(recordsDiffs: true))
    let header = recorder.recordedData
    #expect(String(decoding: header, as: UTF8.self).hasPrefix(#"{"format""#))
    #expect(header.filter { $0 == 0x0A }.count == 1, "the header alone")
    store.dispatch(AddTodo(title: "a"))
    let lines = String(decoding: recorder.recordedData, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[1].hasPrefix(#"{"checkpoint":0,"state":{"#))
    #expect(lines[2].hasPrefix(#"{"seq":1,"#))
  }

  @Test("Diff mode needs an Encodable state")
  func needsEncodableState() {
    struct Opaque: State {}
    let store = Store<Opaque, Void>(initialState: Opaque())
    #expect(throws: ActionLogError.stateNotEncodable(stateType: String(reflecting: Opaque.self))) {
      _ = try ActionRecorder(
        store: store, registry: ActionLogRegistry<Opaque>(), destination: .memory,
        options: .init(recordsDiffs: true))
    }
  }
}

@Suite("Structural JSON diff")
struct JSONChangeTests {
  private func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Data(text.utf8)) }

  private func pointers(_ old: String, _ new: String) throws -> [String] {
    try JSONChange.changes(from: json(old), to: json(new)).map {
      "\($0.operation.rawValue) \(JSONPath.text($0.path))"
    }
  }

  @Test("An element inserted or removed inside an array is one add or remove at its index")
  func arrays() throws {
    #expect(try pointers("[1,2,3,4]", "[1,2,9,3,4]") == ["add /2"])
    #expect(try pointers("[1,2,3,4]", "[1,3,4]") == ["remove /1"])
    #expect(try pointers("[1,2,3,4]", "[1,7,3,4]") == ["replace /1"])
    #expect(try pointers("[1,2,3,4,5]", "[1,5]") == ["remove /3", "remove /2", "remove /1"])
    #expect(try pointers("[0]", "[0,1,2]") == ["add /1", "add /2"])
    #expect(try pointers(#"[{"a":1}]"#, #"[{"a":2}]"#) == ["replace /0/a"])
  }

  @Test("Objects are compared by key, in any order; keys are escaped as JSON Pointer says")
  func objects() throws {
    #expect(try pointers(#"{"a":1,"b":2}"#, #"{"b":2,"a":1}"#).isEmpty)
    #expect(try pointers(#"{"a/b":1,"c~":2}"#, #"{"c~":3}"#) == ["remove /a~1b", "replace /c~0"])
    #expect(try pointers(#"{"a":1}"#, #"{"a":[1]}"#) == ["replace /a"])
    #expect(try pointers("1", "2") == ["replace "])
  }

  @Test("Applying a diff gives the new value, for every pair of a set of values")
  func applyRoundTrip() throws {
    let values = [
      "null", "true", "1.50", #""x""#, "[]", "[1,2,3]", "[3,2,1]", "[1,[2,[3]]]", "{}",
      #"{"a":1,"b":[1,2]}"#, #"{"a":{"b":{"c":[]}},"d":null}"#, #"[{"id":1},{"id":2},{"id":3}]"#,
      #"[{"id":2},{"id":3},{"id":1,"x":true}]"#, #"{"a~/":["\u00e9","\n"]}"#,
    ]
    for oldText in values {
      for newText in values {
        var value = try json(oldText)
        let new = try json(newText)
        try JSONChange.apply(JSONChange.changes(from: value, to: new), to: &value)
        #expect(value == new, "\(oldText) → \(newText)")
      }
    }
  }

  @Test("A diff that does not fit the value names the path")
  func mismatch() throws {
    var value = try json(#"{"a":[1]}"#)
    let change = try JSONChange(json: json(#"{"op":"replace","path":"/a/5","value":0}"#))
    #expect(throws: JSONChange.Mismatch(path: "/a/5", reason: "index 5 is out of range")) {
      try JSONChange.apply([change], to: &value)
    }
    #expect(throws: JSONChange.Mismatch.self) {
      try JSONChange(json: json(#"{"op":"move","path":"/a"}"#))
    }
  }

  @Test("The parser refuses bad JSON with the offset, and nesting past its limit")
  func parserLimits() throws {
    #expect(throws: JSONParser.Failure(offset: 7, reason: "expected \",\" or \"}\"")) {
      try JSONParser.parse(Data(#"{"a":1 "b":2}"#.utf8))
    }
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Data(deep.utf8)) }
    let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
    #expect(throws: Never.self) { try JSONParser.parse(Data(fine.utf8)) }
    #expect(try json(#""\ud83d\ude00\u0007""#) == .string("😀\u{7}"))
    #expect(JSONValue.string("a\u{1B}[2J\u{9B}").text() == #""a\u001b[2J\u009b""#)
    #expect(JSONValue.string("</script>").text(forHTML: true) == #""\u003c/script\u003e""#)
  }
}
