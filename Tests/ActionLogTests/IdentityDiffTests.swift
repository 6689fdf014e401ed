import ActionLog
import Foundation
import StateStore
import Testing

/// A list whose elements are `Identifiable` values in a plain array, not a `TrackedArray`.
struct Shelf: State, Codable {
  struct Book: Identifiable, Codable, Equatable, Sendable {
    var id: String
    var title: String
  }

  var books: [Book] = []
}

struct ShelveBook: StateUpdater, Codable {
  var id: String
  var title: String
  func updateState(_ state: inout Shelf) { state.books.append(Shelf.Book(id: id, title: title)) }
}

struct SortShelf: StateUpdater, Codable {
  func updateState(_ state: inout Shelf) { state.books.sort { $0.title < $1.title } }
}

struct RetitleBook: StateUpdater, Codable {
  var id: String
  var title: String
  func updateState(_ state: inout Shelf) {
    if let index = state.books.firstIndex(where: { $0.id == id }) {
      state.books[index].title = title
    }
  }
}

extension ActionLogRegistry<Shelf> {
  static func shelf() -> ActionLogRegistry<Shelf> {
    ActionLogRegistry<Shelf>().register(ShelveBook.self).register(SortShelf.self)
      .register(RetitleBook.self)
  }
}

@MainActor
@Suite("Diffs by identity: elements named by their id, moves as moves")
struct IdentityDiffTests {
  private func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Data(text.utf8)) }

  /// The `diff` of each entry of `log`, as JSON text, by `seq`.
  private func diffs(_ log: Data) throws -> [Int: String] {
    var diffs: [Int: String] = [:]
    for line in log.split(separator: 0x0A) {
      let value = try JSONParser.parse(line)
      if let sequence = value["seq"]?.intValue { diffs[sequence] = value["diff"]?.text() }
    }
    return diffs
  }

  @Test("A tracked array's element is named by its id wherever it stands: /todos[id=3]/done")
  func trackedArrayByID() throws {
    let store = Store<TodoState, Void>(initialState: TodoState())
    let recorder = try ActionRecorder(
      store: store, registry: .todos(), destination: .memory, options: .init(recordsDiffs: true))
    for title in ["milk", "eggs", "bread"] { store.dispatch(AddTodo(title: title)) }
    store.dispatch(ToggleTodo(id: 3))
    store.dispatch(RemoveTodo(id: 1))
    // Todo 3 is now second: the same name all the same.
    store.dispatch(ToggleTodo(id: 3))
    let diffs = try diffs(recorder.recordedData)
    #expect(diffs[4] == #"[{"op":"replace","path":"/todos[id=3]/done","old":false,"value":true}]"#)
    #expect(
      diffs[5]
        == #"[{"op":"remove","path":"/todos[id=1]","index":0,"#
        + #""old":{"done":false,"id":1,"title":"milk"}}]"#)
    #expect(diffs[6] == #"[{"op":"replace","path":"/todos[id=3]/done","old":true,"value":false}]"#)
    #expect(
      String(decoding: recorder.recordedData, as: UTF8.self).hasPrefix(
        #"{"format":"statestore-action-log","version":2,"#))
  }

  @Test("An array of Identifiable values is named by id too, and a sort is moves, nothing else")
  func plainArraySortIsMoves() throws {
    let store = Store<Shelf, Void>(initialState: Shelf())
    let recorder = try ActionRecorder(
      store: store, registry: .shelf(), destination: .memory, options: .init(recordsDiffs: true))
    for (id, title) in [("a", "Dune"), ("b", "Emma"), ("c", "Beloved"), ("d", "Carrie")] {
      store.dispatch(ShelveBook(id: id, title: title))
    }
    store.dispatch(SortShelf())
    store.dispatch(RetitleBook(id: "b", title: "Emma (annotated)"))
    let diffs = try diffs(recorder.recordedData)
    // Dune, Emma, Beloved, Carrie → Beloved, Carrie, Dune, Emma: two moves, fields untouched.
    #expect(
      diffs[5]
        == #"[{"op":"move","path":"/books[id=\"c\"]","from":2,"index":0},"#
        + #"{"op":"move","path":"/books[id=\"d\"]","from":3,"index":1}]"#)
    #expect(
      diffs[6]
        == #"[{"op":"replace","path":"/books[id=\"b\"]/title","old":"Emma","#
        + #""value":"Emma (annotated)"}]"#)
  }

  /// A seeded generator (SplitMix64), so that a failing case can be run again.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var value = state
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return value ^ (value >> 31)
    }
  }

  /// The length of a longest increasing subsequence, the slow and obvious way.
  private func longestRun(_ values: [Int]) -> Int {
    var lengths = [Int](repeating: 1, count: values.count)
    for index in values.indices {
      for earlier in 0..<index where values[earlier] < values[index] {
        lengths[index] = max(lengths[index], lengths[earlier] + 1)
      }
    }
    return lengths.max() ?? 0
  }

  @Test("Seeded shuffles, insertions, removals, edits: the diff rebuilds, with fewest moves")
  func randomArrays() throws {
    var random = SeededGenerator(state: 44)
    for round in 0..<300 {
      let count = Int.random(in: 0...12, using: &random)
      let old = (0..<count).map { id in
        JSONValue.object(JSONObject([("id", .number(String(id))), ("v", .number("0"))]))
      }
      var new = old.shuffled(using: &random).filter { _ in Int.random(in: 0..<5, using: &random) > 0
      }
      for _ in 0..<Int.random(in: 0...3, using: &random) {
        let element = JSONValue.object(
          JSONObject([("id", .number(String(100 + new.count))), ("v", .number("1"))]))
        new.insert(element, at: Int.random(in: 0...new.count, using: &random))
      }
      if !new.isEmpty, Bool.random(using: &random) {
        new[Int.random(in: 0..<new.count, using: &random)]["v"] = .number("7")
      }
      let before = JSONValue.object(JSONObject([("list", .array(old))]))
      let after = JSONValue.object(JSONObject([("list", .array(new))]))
      let changes = JSONChange.changes(from: before, to: after)
      var rebuilt = before
      try JSONChange.apply(changes, to: &rebuilt)
      #expect(rebuilt == after, "round \(round): \(JSONChange.text(changes))")
      // Read back from its text, the diff rebuilds it too.
      let read = try changes.map { try JSONChange(json: $0.json) }
      var again = before
      try JSONChange.apply(read, to: &again)
      #expect(again == after, "round \(round)")
      let kept = new.compactMap { element in old.firstIndex { $0["id"] == element["id"] } }
      let moves = changes.filter { $0.operation == .move }.count
      #expect(moves == kept.count - longestRun(kept), "round \(round): \(JSONChange.text(changes))")
      #expect(
        changes.allSatisfy { change in
          guard case .id = change.path.dropFirst().first else { return false }
          return true
        }, "round \(round): every change names its element by id")
    }
  }

  @Test("A reader's position hints, kept from entry to entry, never mislead as elements move")
  func hintsAcrossEntries() throws {
    var random = SeededGenerator(state: 45)
    var elements = (0..<20).map { id in
      JSONValue.object(JSONObject([("id", .number(String(id))), ("v", .number("0"))]))
    }
    var state = JSONValue.object(JSONObject([("list", .array(elements))]))
    var hints = PositionHints()
    for step in 0..<200 {
      if Bool.random(using: &random) { elements.shuffle(using: &random) }
      let edited = Int.random(in: 0..<elements.count, using: &random)
      elements[edited]["v"] = .number(String(step))
      let next = JSONValue.object(JSONObject([("list", .array(elements))]))
      try JSONChange.apply(JSONChange.changes(from: state, to: next), to: &state, hints: &hints)
      #expect(state == next, "step \(step)")
    }
  }

  @Test("Arrays whose elements do not all carry a distinct id are diffed by position, as before")
  func positionalArrays() throws {
    let steps = { (old: String, new: String) throws -> [String] in
      try JSONChange.changes(from: self.json(old), to: self.json(new)).map {
        "\($0.operation.rawValue) \(JSONPath.text($0.path))"
      }
    }
    #expect(try steps(#"[{"id":1},{"id":1}]"#, #"[{"id":1},{"id":2}]"#) == ["replace /1/id"])
    #expect(
      try steps(#"[{"id":1},{"n":2}]"#, #"[{"n":2},{"id":1}]"#) == [
        "remove /0/id", "add /0/n", "remove /1/n", "add /1/id",
      ])
    #expect(try steps(#"[{"id":[1]},{"id":[2]}]"#, #"[{"id":[2]},{"id":[1]}]"#).count == 2)
    #expect(try steps("[1,2,3]", "[3,1,2]") == ["replace /0", "replace /1", "replace /2"])
    // Under a name, distinct ids are identity; the whole value is always compared by position.
    #expect(
      try steps(#"{"a":[{"id":1},{"id":2}]}"#, #"{"a":[{"id":2},{"id":1}]}"#) == ["move /a[id=2]"])
    #expect(try steps(#"[{"id":1},{"id":2}]"#, #"[{"id":2},{"id":1}]"#).count == 2)
  }

  @Test("Paths: version 2 writes an id as JSON after its array and `[` in a name as ~2")
  func pathSyntax() throws {
    let path: [PathStep] = [
      .token("lists"), .id(.string("home/a]")), .token("items"), .id(.number("7")),
      .token("odd[key~"),
    ]
    let text = JSONPath.text(path)
    #expect(text == #"/lists[id="home~1a]"]/items[id=7]/odd~2key~0"#)
    #expect(JSONPath.steps(text) == path)
    // Version 1 has no element steps: a `[` there is part of a member's name.
    #expect(
      JSONPath.steps("/todos[id=3]/done", version: 1) == [.token("todos[id=3]"), .token("done")])
    #expect(
      JSONPath.steps("/todos[id=3]/done") == [.token("todos"), .id(.number("3")), .token("done")])
    #expect(JSONPath.steps("/todos[id=]") == nil)
    #expect(JSONPath.steps("/todos[id={}]") == nil)
    let v1 = try JSONChange(
      json: json(#"{"op":"replace","path":"/a[id=3]","value":1}"#), version: 1)
    #expect(v1.path == [.token("a[id=3]")])
    #expect(throws: JSONChange.Mismatch.self) {
      try JSONChange(json: self.json(#"{"op":"move","path":"/a[id=3]","index":0}"#), version: 1)
    }
    #expect(throws: JSONChange.Mismatch.self) {
      try JSONChange(json: self.json(#"{"op":"add","path":"/a[id=3]","value":{}}"#))
    }
  }

  @Test("A diff naming an id that no element, or several, carry does not apply, and says so")
  func unknownOrAmbiguousID() throws {
    var value = try json(#"{"a":[{"id":1,"v":0},{"id":1,"v":0},{"id":2}]}"#)
    let change = JSONChange(
      .replace, [.token("a"), .id(.number("1")), .token("v")], old: nil, value: .number("5"))
    #expect(
      throws: JSONChange.Mismatch(
        path: "/a[id=1]/v", reason: "several elements have this identifier")
    ) {
      try JSONChange.apply([change], to: &value)
    }
    let missing = JSONChange(
      .remove, [.token("a"), .id(.number("9"))], old: nil, value: nil, index: 0)
    #expect(throws: JSONChange.Mismatch(path: "/a[id=9]", reason: "no element has this identifier"))
    {
      try JSONChange.apply([missing], to: &value)
    }
  }

  @Test("A log without diffs stays version 1; diffs appended to a version-1 log name positions")
  func versions() throws {
    let plain = Store<TodoState, Void>(initialState: TodoState())
    let recorder = try ActionRecorder(store: plain, registry: .todos(), destination: .memory)
    plain.dispatch(AddTodo(title: "milk"))
    #expect(
      String(decoding: recorder.recordedData, as: UTF8.self).hasPrefix(
        #"{"format":"statestore-action-log","version":1,"#))
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("version-1-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    try Data((#"{"format":"statestore-action-log","version":1}"# + "\n").utf8).write(to: url)
    let store = Store<TodoState, Void>(initialState: TodoState())
    let appending = try ActionRecorder(
      store: store, registry: .todos(), destination: .file(url), options: .init(recordsDiffs: true))
    store.dispatch(AddTodo(title: "milk"))
    store.dispatch(ToggleTodo(id: 1))
    try appending.stop()
    let diffs = try diffs(Data(contentsOf: url))
    #expect(diffs[2] == #"[{"op":"replace","path":"/todos/0/done","old":false,"value":true}]"#)
    #expect(try ActionReplayer(registry: .todos()).replay(contentsOf: url) == store.state)
  }
}
