import Foundation
import StateStore

/// How ``ShrunkSession/testSource(_:)`` writes its test.
public struct TestSourceOptions: Sendable {
  /// The name of the test function.
  public var testName: String
  /// Import lines the test needs besides `StateStoreTesting` and `Testing`, such as
  /// `"@testable import TodoCore"` for the module that declares the state and its updaters.
  public var imports: [String]
  /// The Swift expression of the test store's dependencies; `()` by default.
  ///
  /// A test that sends updaters only needs none. A test that starts an effect needs a value of
  /// the effect's dependencies type: the recorded values stand in for what its `recorded` calls
  /// return.
  public var dependencies: String

  /// Creates options.
  public init(
    testName: String = "shrunkSession", imports: [String] = [], dependencies: String = "()"
  ) {
    self.testName = testName
    self.imports = imports
    self.dependencies = dependencies
  }
}

extension ShrunkSession {
  /// The session as a Swift Testing test: an exhaustive `TestStore` that sends each kept
  /// updater and states the fields it changes.
  ///
  /// ```swift
  /// @MainActor @Test func shrunkSession() async throws {
  ///   let store = TestStore(initialState: AppState(), dependencies: ())
  ///   try await store.send(decoded(AddTodo.self, json: #"{"id":3,"title":"a"}"#)) {
  ///     $0.todos.insert(try decoded(json: #"{"done":false,"id":3,"title":"a"}"#), at: 0)
  ///   }
  ///   try await store.send(decoded(SetDone.self, json: #"{"done":true,"id":3}"#)) {
  ///     $0.todos[id: 3]?.done = true
  ///   }
  /// }
  /// ```
  ///
  /// The changes are the JSON diffs between the replayed states, each written as an
  /// assignment to the field it names (found with `Mirror`, so a field must be a stored
  /// property named as it is encoded): a literal for a `Bool`, a number, a `String` or `nil`,
  /// `decoded(json:)` for anything else, and the whole enclosing field where a change has no
  /// spelling (a move). After the last step the test expects what the check says is right:
  /// the value a pointer names, or the change the log recorded; so it fails on the code the
  /// session was recorded on, and passes once the bug is fixed. For a predicate or a thrown
  /// error, the test states what the code does today, and marks the step to correct.
  ///
  /// The updaters of a side effect whose type was registered with `registerEffect(_:name:)`
  /// (so that the log recorded its encoding) are received: the test feeds the effect the values
  /// it got from its dependencies (`replayEffects`), sends it, receives each updater it
  /// dispatched and waits for it to finish. Updaters that any other effect dispatched are sent
  /// directly, with a comment naming the effect and where it was dispatched.
  ///
  /// - Complexity: O(entries × size of the state).
  public func testSource(_ options: TestSourceOptions = TestSourceOptions()) -> String {
    let stateName = SwiftSource.typeName(S.self)
    var lines = [
      "// Written by SessionShrinker: \(recordedEntryCount) recorded entries shrunk to "
        + "\(steps.count) step\(steps.count == 1 ? "" : "s").",
      "// The check: \(checkSummary).",
      "",
    ]
    lines += (["import StateStoreTesting", "import Testing"] + options.imports).sorted {
      $0.replacingOccurrences(of: "@testable ", with: "")
        < $1.replacingOccurrences(of: "@testable ", with: "")
    }
    lines += ["", "@MainActor", "@Test func \(options.testName)() async throws {"]
    let initialJSON = ShrinkEvaluator<S>.encoded(initialState) ?? .null
    let initial =
      ShrinkEvaluator<S>.same(initialJSON, ShrinkEvaluator<S>.encoded(S()) ?? .null)
      ? "\(stateName)()"
      : "try decoded(\(stateName).self, json: \(SwiftSource.rawLiteral(initialJSON.text())))"
    lines.append(
      "  let store = TestStore(initialState: \(initial), dependencies: \(options.dependencies))")
    var state = initialState
    var beforeJSON = initialJSON
    let lastIndex = entries.count - 1
    var index = 0
    for step in steps {
      var changes: [StepChange] = []
      for entry in step.entries {
        defer { index += 1 }
        let before = state
        entry.updater.updateState(&state)
        let replayedJSON = ShrinkEvaluator<S>.encoded(state) ?? .null
        let isLast = index == lastIndex
        let afterJSON = isLast ? expectedFinalState ?? replayedJSON : replayedJSON
        let assignments = Self.assignments(
          from: beforeJSON, to: afterJSON, before: before, after: state)
        var note: String?
        if isLast, expectedFinalState == nil {
          note = "The check failed after this step (\(checkSummary)): correct its expectation."
        } else if isLast {
          note = "Expected: \(checkSummary).\n  // The code the session was recorded on fails here."
        }
        changes.append(StepChange(entry: entry, assignments: assignments, note: note))
        beforeJSON = replayedJSON
      }
      lines += Self.renderStep(step, changes)
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// One entry of a step with the assignments of its changes and a note to write above it.
  struct StepChange {
    var entry: ActionLogEntry<S>
    var assignments: [String]
    var note: String?
  }

  /// The lines of one step: a `send` of each updater, or, for the updaters of an effect the
  /// log recorded with its encoding, the effect's recorded values, a `send` of the effect, a
  /// `receive` of each updater and a `finish()`.
  ///
  /// The one place that decides how a step reads.
  static func renderStep(_ step: SessionStep<S>, _ changes: [StepChange]) -> [String] {
    guard let effect = step.effect else {
      return changes.flatMap { renderSend($0) }
    }
    let recorded = effect.recorded
    var lines = [""]
    var origin = "  // Effect \(recorded.number) (\(recorded.type))"
    if let site = recorded.site { origin += ", dispatched at \(site.fileID):\(site.line)" }
    lines.append(origin + ".")
    lines.append("  // Started again with the values it recorded; its updaters are received.")
    lines += recordedEffectsSource(recorded)
    lines.append(
      "  try await store.send(decoded(\(effect.typeName).self, json: "
        + "\(SwiftSource.rawLiteral(effect.payloadJSON))))")
    for change in changes {
      lines.append("  // Entry \(change.entry.sequence).")
      if let note = change.note { lines.append("  // \(note)") }
      let name = SwiftSource.typeName(type(of: change.entry.updater))
      lines += call("await store.receive(\(name).self)", change.assignments)
    }
    lines.append("  await store.finish()")
    return lines
  }

  /// The lines of an updater sent directly: a comment saying where the entry came from, then
  /// the `send` and the assignments of its changes.
  private static func renderSend(_ change: StepChange) -> [String] {
    let entry = change.entry
    var lines = [""]
    var origin = "  // Entry \(entry.sequence)"
    if let site = entry.site { origin += ", dispatched at \(site.fileID):\(site.line)" }
    lines.append(origin + ".")
    if let cause = entry.cause {
      let chain = cause.chain.map { cause in
        cause.site.map { "\(cause.name) (\($0.fileID):\($0.line))" } ?? cause.name
      }
      lines.append("  // Dispatched by \(chain.joined(separator: " ← ")): sent here directly.")
    }
    if let note = change.note { lines.append("  // \(note)") }
    let updater = updaterSource(entry.updater)
    let send = updater.contains("decoded(") ? "try await store.send" : "await store.send"
    return lines + call("\(send)(\(updater))", change.assignments)
  }

  /// A call, `head`, with a trailing closure of `assignments` when there are any: the one
  /// spelling of what a step changes, for a `send` and a `receive` alike.
  private static func call(_ head: String, _ assignments: [String]) -> [String] {
    guard !assignments.isEmpty else { return ["  " + head] }
    return ["  \(head) {"] + assignments.map { "    " + $0 } + ["  }"]
  }

  /// The `replayEffects` call that feeds `effect` its recorded values.
  private static func recordedEffectsSource(_ effect: RecordedEffect) -> [String] {
    let type = SwiftSource.stringLiteral(effect.type)
    guard !effect.values.isEmpty else {
      return ["  store.replayEffects(RecordedEffects([RecordedEffect(type: \(type))]))"]
    }
    let values = effect.values.map { value in
      let label = SwiftSource.stringLiteral(value.label)
      if let json = value.json {
        return
          "          try .init(label: \(label), jsonText: \(SwiftSource.rawLiteral(json.text())))"
      }
      return
        "          .init(label: \(label), failure: \(SwiftSource.stringLiteral(value.failure ?? "")))"
    }
    // A trailing comma in a list of several values only, as swift-format writes it.
    return [
      "  store.replayEffects(",
      "    RecordedEffects([",
      "      RecordedEffect(",
      "        type: \(type),",
      "        values: [",
    ] + values.map { values.count == 1 ? $0 : $0 + "," } + ["        ])", "    ]))"]
  }

  /// The Swift expression of an updater: `decoded(Type.self, json: …)` of its encoding.
  static func updaterSource(_ updater: any StateUpdater<S>) -> String {
    let name = SwiftSource.typeName(type(of: updater))
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let encodable = updater as? any Encodable,
      let data = try? encoder.encode(encodable), let text = String(data: data, encoding: .utf8)
    else { return "\(name)()" }
    return "decoded(\(name).self, json: \(SwiftSource.rawLiteral(text)))"
  }

  /// The assignments that turn the state encoded as `old` into the one encoded as `new`.
  static func assignments(
    from old: JSONValue, to new: JSONValue, before: S, after: S
  ) -> [String] {
    var lines: [String] = []
    var wholeFields: [[PathStep]] = []
    for change in JSONChange.changes(from: old, to: new, identifies: true) {
      if wholeFields.contains(where: { change.path.starts(with: $0) }) { continue }
      if let line = assignment(for: change, before: before, after: after) {
        lines.append(line)
        continue
      }
      // No spelling for this change: assign the nearest enclosing field whole.
      var prefix = Array(change.path.dropLast())
      while true {
        if let walk = SwiftSource.walk(prefix, from: after), let value = new.value(at: prefix) {
          lines.append("\(walk.text) = \(SwiftSource.literal(for: walk.value, json: value))")
          wholeFields.append(prefix)
          break
        }
        if prefix.isEmpty { break }
        prefix.removeLast()
      }
    }
    return lines
  }

  /// One change as an assignment or a call, or `nil` when it has no spelling.
  private static func assignment(for change: JSONChange, before: S, after: S) -> String? {
    guard let last = change.path.last else { return nil }
    switch change.operation {
    case .replace:
      guard let value = change.value, let walk = SwiftSource.walk(change.path, from: after)
      else { return nil }
      return "\(walk.text) = \(SwiftSource.literal(for: walk.value, json: value))"
    case .add:
      guard let value = change.value, let parent = parentWalk(change.path, in: after) else {
        return nil
      }
      let element = SwiftSource.literal(
        for: SwiftSource.walk(change.path, from: after)?.value, json: value)
      switch (parent.kind, last) {
      case (.tracked, .id):
        guard let index = change.index else { return nil }
        return "\(parent.text).insert(\(element), at: \(index))"
      case (.collection, .token(let token)):
        guard let index = JSONPointer.index(token) else { return nil }
        return "\(parent.text).insert(\(element), at: \(index))"
      case (.other, .token):
        guard let walk = SwiftSource.walk(change.path, from: after) else { return nil }
        return "\(walk.text) = \(SwiftSource.literal(for: walk.value, json: value))"
      default:
        return nil
      }
    case .remove:
      guard let parent = parentWalk(change.path, in: before),
        let walk = SwiftSource.walk(change.path, from: before)
      else { return nil }
      switch (parent.kind, last) {
      case (.tracked, _):
        return "\(walk.text) = nil"
      case (.collection, .token(let token)):
        guard let index = JSONPointer.index(token) else { return nil }
        return "\(parent.text).remove(at: \(index))"
      case (.other, .token):
        guard Mirror(reflecting: walk.value).displayStyle == .optional else { return nil }
        return "\(walk.text) = nil"
      default:
        return nil
      }
    case .move:
      return nil
    }
  }

  private enum ContainerKind { case tracked, collection, other }

  /// The path to the container of the last step of `path`, ready for a call on it.
  private static func parentWalk(
    _ path: [PathStep], in state: S
  ) -> (text: String, kind: ContainerKind)? {
    guard var walk = SwiftSource.walk(path.dropLast(), from: state) else { return nil }
    var value = walk.value
    if walk.endsInLookup { walk.text += "?" }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
      guard let wrapped = mirror.children.first?.value else { return nil }
      value = wrapped
      walk.text += "?"
    }
    if SwiftSource.trackedElements(of: value) != nil { return (walk.text, .tracked) }
    if Mirror(reflecting: value).displayStyle == .collection { return (walk.text, .collection) }
    return (walk.text, .other)
  }
}
