import Foundation
import StateStore

/// Replays sub-sessions and judges them by a ``SessionCheck``, counting the checks.
struct ShrinkEvaluator<S: State & Codable> {
  private let kind: SessionCheck<S>.Kind
  private let initialState: S
  /// How many sub-sessions were checked.
  private(set) var checksRun = 0
  /// For a divergence check, the entry whose replay first differs from its recorded diff.
  private(set) var divergingSequence: Int?
  /// That entry's recorded diff.
  private var divergingDiff: [JSONChange] = []
  /// For a pointer's check, the entry that last changed the value at the pointer.
  private(set) var breakingSequence: Int?
  /// For a pointer's check, its path with each position in an array of identified elements
  /// replaced by the identifier of the element there in the recorded final state, so that
  /// a sub-session without some elements still looks at the same one.
  private(set) var expectedPath: [PathStep] = []
  /// The value there before that entry, `nil` if there was none.
  private var valueBeforeBreaking: JSONValue?
  /// The wrong value that entry left there.
  private var wrongValue: JSONValue = .null

  init(check: SessionCheck<S>, initialState: S) throws(SessionShrinkError) {
    self.kind = check.kind
    self.initialState = initialState
    guard Self.encoded(initialState) != nil else {
      throw .stateNotCodable(reason: "\(S.self) does not encode as JSON")
    }
  }

  /// The index of the first entry whose replay does not make the change it recorded.
  ///
  /// - Throws: ``SessionShrinkError/noRecordedDiffs`` when no entry has a diff,
  ///   ``SessionShrinkError/sessionPasses(check:)`` when every replay matches.
  /// - Complexity: O(entries × size of the state).
  mutating func firstDivergence(
    in entries: [RecordedSession<S>.Entry]
  ) throws(SessionShrinkError) -> Int {
    guard entries.contains(where: { $0.diff != nil }) else { throw .noRecordedDiffs }
    var state = initialState
    guard var before = Self.encoded(state) else {
      throw .stateNotCodable(reason: "\(S.self) does not encode as JSON")
    }
    for (index, entry) in entries.enumerated() {
      entry.entry.updater.updateState(&state)
      guard let after = Self.encoded(state) else {
        throw .stateNotCodable(reason: "the state after entry \(entry.entry.sequence)")
      }
      defer { before = after }
      guard let diff = entry.diff else { continue }
      guard let expected = Self.applying(diff, to: before), Self.same(expected, after) else {
        divergingSequence = entry.entry.sequence
        divergingDiff = diff
        return index
      }
    }
    throw .sessionPasses(check: SessionCheck<S>.divergesFromRecordedDiffs.summary)
  }

  /// The index of the entry that last changed the value at `path`, which the session ends
  /// with and which is not `expected`.
  ///
  /// - Throws: ``SessionShrinkError/sessionPasses(check:)`` when the final value is missing
  ///   or right.
  /// - Complexity: O(entries × size of the state).
  mutating func lastChange(
    at path: [PathStep], expected: JSONValue, summary: String,
    in entries: [RecordedSession<S>.Entry]
  ) throws(SessionShrinkError) -> Int {
    let final = Self.encoded(replay(entries[...])) ?? .null
    let path = Self.identified(path, in: final)
    expectedPath = path
    var state = initialState
    var previous = Self.encoded(state)?.value(at: path)
    var breaking: (index: Int, before: JSONValue?)?
    for (index, entry) in entries.enumerated() {
      entry.entry.updater.updateState(&state)
      let value = Self.encoded(state)?.value(at: path)
      if !Self.same(previous, value) { breaking = (index, previous) }
      previous = value
    }
    guard let breaking, let previous, !Self.same(previous, expected) else {
      throw .sessionPasses(check: summary)
    }
    breakingSequence = entries[breaking.index].entry.sequence
    valueBeforeBreaking = breaking.before
    wrongValue = previous
    return breaking.index
  }

  /// Whether the sub-session `entries`, replayed from the initial state, fails.
  ///
  /// - Complexity: O(entries × cost of an updater), plus one encoding of the state.
  mutating func fails(_ entries: [RecordedSession<S>.Entry]) -> Bool {
    checksRun += 1
    switch kind {
    case .expect:
      let path = expectedPath
      // The entry that broke the value, last, turning the same value before it into the same
      // wrong value.
      guard let last = entries.last, last.entry.sequence == breakingSequence else {
        return false
      }
      var state = replay(entries.dropLast())
      let before = Self.encoded(state)?.value(at: path)
      last.entry.updater.updateState(&state)
      guard let after = Self.encoded(state)?.value(at: path) else { return false }
      return Self.same(after, wrongValue) && Self.same(before, valueBeforeBreaking)
    case .predicate(let isFailing):
      return isFailing(replay(entries[...]))
    case .throwing(let check):
      do {
        try check(replay(entries[...]))
        return false
      } catch {
        return true
      }
    case .diverges:
      guard let last = entries.last, last.entry.sequence == divergingSequence else {
        return false
      }
      var state = replay(entries.dropLast())
      guard let before = Self.encoded(state),
        let expected = Self.applying(divergingDiff, to: before)
      else { return false }
      last.entry.updater.updateState(&state)
      guard let after = Self.encoded(state) else { return false }
      return !Self.same(expected, after)
    }
  }

  /// The encoded state the sub-session `entries` should end in, by the check: the replayed
  /// final state with the value a pointer expects, or the state before the diverging entry
  /// with its recorded diff applied; `nil` when the check does not say.
  func expectedFinalState(_ entries: [RecordedSession<S>.Entry]) -> JSONValue? {
    switch kind {
    case .expect(_, _, let value):
      let path = expectedPath
      guard var final = Self.encoded(replay(entries[...])), let old = final.value(at: path)
      else { return nil }
      try? JSONChange.apply([JSONChange(.replace, path, old: old, value: value)], to: &final)
      return final
    case .diverges:
      guard let before = Self.encoded(replay(entries.dropLast())) else { return nil }
      return Self.applying(divergingDiff, to: before)
    case .predicate, .throwing:
      return nil
    }
  }

  private func replay(_ entries: ArraySlice<RecordedSession<S>.Entry>) -> S {
    var state = initialState
    for entry in entries { entry.entry.updater.updateState(&state) }
    return state
  }

  /// `path` with each position in an array whose elements all carry distinct identifiers
  /// replaced by the identifier of the element at that position in `value`.
  ///
  /// - Complexity: O(length of `path` × elements of the arrays on the way).
  static func identified(_ path: [PathStep], in value: JSONValue) -> [PathStep] {
    var result: [PathStep] = []
    var current: JSONValue? = value
    for step in path {
      if case .token(let token) = step, case .array(let elements)? = current,
        let index = JSONPointer.index(token), index < elements.count,
        let id = elements[index].elementIdentifier, IdentifiedElements(elements) != nil
      {
        result.append(.id(id))
        current = elements[index]
        continue
      }
      result.append(step)
      current = current?.value(at: [step])
    }
    return result
  }

  /// `value` with `changes` applied, or `nil` when they do not apply: a path leads nowhere, or
  /// a value a change replaces or removes is not the one it recorded.
  static func applying(_ changes: [JSONChange], to value: JSONValue) -> JSONValue? {
    var result = value
    for change in changes {
      if let old = change.old, change.operation != .move {
        guard let current = result.value(at: change.path), same(current, old) else { return nil }
      }
      do { try JSONChange.apply([change], to: &result) } catch { return nil }
    }
    return result
  }

  /// The state as a JSON value, its keys sorted so that a written test is the same text on
  /// every run, or `nil` when it does not encode.
  static func encoded(_ state: S) -> JSONValue? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(state) else { return nil }
    return try? JSONParser.parse(data)
  }

  /// Whether two values that may be missing are the same.
  static func same(_ lhs: JSONValue?, _ rhs: JSONValue?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): true
    case (let left?, let right?): same(left, right)
    default: false
    }
  }

  /// Whether two JSON values are the same: numbers by value, objects whatever their order.
  static func same(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.number(let left), .number(let right)):
      return left == right || (Double(left).map { $0 == Double(right) } ?? false)
    case (.array(let left), .array(let right)):
      return left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
    case (.object(let left), .object(let right)):
      return left.count == right.count
        && left.members.allSatisfy { member in
          right[member.key].map { same(member.value, $0) } ?? false
        }
    default:
      return lhs == rhs
    }
  }
}
