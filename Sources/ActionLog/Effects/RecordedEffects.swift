import Foundation
import StateStore

/// The effects of a recorded session, fed back to the effects of a replay: each
/// `context.recorded { … }` returns the value the log recorded, with no network and no clock.
///
/// ```swift
/// let effects = try RecordedEffects(log: recordedData)
/// let store = TestStore(initialState: AppState(), dependencies: .offline)
/// store.replayEffects(effects)
/// await store.send(Search(query: "milk"))
/// await store.receive(SetResults.self) { $0.results = ["milk"] }  // as recorded
/// ```
///
/// A live effect takes the next recorded effect of its type, in the order they started, and
/// each of its `recorded` calls the next value of that effect, whose label must match. An
/// effect that asks for a value the log does not have throws ``EffectReplayError``, naming the
/// effect and the entry; so do values left unasked for at the end (``unreplayedValues``).
/// A dependency that threw when recorded throws ``RecordedDependencyError`` again.
@MainActor
public final class RecordedEffects: EffectLog {
  /// The effects, in the order they started in the log.
  public let effects: [RecordedEffect]
  /// For each effect type, the recorded effects not yet taken by a live one, as positions in
  /// `effects`, and the index of the next.
  private var waiting: [String: (positions: [Int], next: Int)] = [:]
  /// For each live effect's number, its recorded effect's position; `nil` when none was left.
  private var taken: [Int: Int?] = [:]
  /// For each live effect's number, its type, for errors.
  private var types: [Int: String] = [:]
  /// How many values each taken recorded effect has given, by position.
  private var given: [Int: Int] = [:]
  private var nextNumber = 0
  private let decoder = JSONDecoder()
  /// How many live effects have started and not ended.
  private(set) var runningCount = 0
  /// Called on each start and end of a live effect.
  var onChange: (@MainActor () -> Void)?

  /// Feeds `effects` to a replay, in the order they started.
  ///
  /// - Complexity: O(effects).
  public init(_ effects: [RecordedEffect]) {
    self.effects = effects
    for (position, effect) in effects.enumerated() {
      waiting[effect.type, default: ([], 0)].positions.append(position)
    }
  }

  /// Feeds the effects recorded in an action log (`data`, a whole log) to a replay.
  ///
  /// - Throws: ``ActionLogError`` for a bad header or a damaged effect line, naming its line.
  /// - Complexity: O(size of the log).
  public convenience init(log data: Data) throws(ActionLogError) {
    self.init(try EffectLines.read(data))
  }

  /// Feeds these effects to the effects of `store` (of its root, for a scope), replacing any
  /// recorder of effects attached there; the store holds them weakly, so keep them.
  public func replay<S, D>(into store: Store<S, D>) {
    store.attachEffectLog(self)
  }

  /// The recorded values no live effect asked for, one error per effect: the replay did not
  /// reach the effect, or it stopped earlier than when it was recorded.
  ///
  /// Check it once the replay is over, as `TestStore` does when it ends.
  ///
  /// - Complexity: O(effects).
  public var unreplayedValues: [EffectReplayError] {
    effects.indices.compactMap { position in
      let effect = effects[position]
      let used = given[position] ?? 0
      guard used < effect.values.count else { return nil }
      return EffectReplayError(
        effect: name(position), entry: effect.afterEntry, label: effect.values[used].label,
        problem: .valuesNotReplayed(count: effect.values.count - used))
    }
  }

  private func name(_ position: Int) -> String {
    let effect = effects[position]
    return effect.number > 0 ? "\(effect.type), effect \(effect.number)" : effect.type
  }

  // MARK: - EffectLog

  package func effectStarted(_ start: EffectLogStart) -> Int? {
    nextNumber += 1
    runningCount += 1
    defer { onChange?() }
    types[nextNumber] = start.type
    if var queue = waiting[start.type], queue.next < queue.positions.count {
      taken[nextNumber] = queue.positions[queue.next]
      queue.next += 1
      waiting[start.type] = queue
    } else {
      taken[nextNumber] = .some(nil)
    }
    return nextNumber
  }

  package func effectEnded(_ number: Int, outcome: EffectLogOutcome) {
    runningCount -= 1
    onChange?()
  }

  package var replaysValues: Bool { true }

  package func recordValue<Value: Encodable>(_ value: Value, label: String, ofEffect number: Int) {}

  package func recordFailure(_ description: String, label: String, ofEffect number: Int) {}

  package func recordedValue<Value: Decodable>(
    _ type: Value.Type, label: String, ofEffect number: Int
  ) throws -> Value {
    guard let found = taken[number], let position = found else {
      throw EffectReplayError(
        effect: "\(types[number] ?? "an effect") (not in the log: no more were recorded)",
        entry: effects.last?.afterEntry ?? 0, label: label, problem: .valueNotRecorded)
    }
    let effect = effects[position]
    let index = given[position] ?? 0
    guard index < effect.values.count else {
      throw EffectReplayError(
        effect: name(position), entry: effect.afterEntry, label: label,
        problem: .valueNotRecorded)
    }
    let recorded = effect.values[index]
    guard recorded.label == label else {
      throw EffectReplayError(
        effect: name(position), entry: effect.afterEntry, label: label,
        problem: .labelMismatch(recorded: recorded.label, asked: label))
    }
    given[position] = index + 1
    if let failure = recorded.failure {
      throw RecordedDependencyError(label: label, failure: failure)
    }
    do {
      return try decoder.decode(Value.self, from: Data((recorded.json ?? .null).text().utf8))
    } catch {
      throw EffectReplayError(
        effect: name(position), entry: effect.afterEntry, label: label,
        problem: .undecodable(reason: LineFailure.summary(of: error)))
    }
  }
}

/// Reads the effect lines of a log without the app's types.
enum EffectLines {
  /// The effects of the log `data`, in the order they started.
  ///
  /// - Throws: ``ActionLogError`` for a bad header or a damaged effect line, naming its line.
  /// - Complexity: O(size of the log).
  static func read(_ data: Data) throws(ActionLogError) -> [RecordedEffect] {
    let bytes = [UInt8](data)
    let (lines, _) = JSONLines.readable(bytes)
    var sawHeader = false
    var lastEntry = 0
    var effectLines: [(EffectLine, line: Int)] = []
    for (offset, range) in lines.enumerated() {
      let number = offset + 1
      let text = bytes[range]
      if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
      guard sawHeader else {
        _ = try ActionLogHeader.validated(Data(text), line: number)
        sawHeader = true
        continue
      }
      let value: JSONValue
      do {
        value = try JSONParser.parse(text)
      } catch {
        throw .malformedLine(line: number, reason: "\(error)")
      }
      if case .number(let seq)? = value["seq"] {
        lastEntry = Int(seq) ?? lastEntry
      } else if value["effect"] != nil {
        effectLines.append((try EffectLine.parse(text, line: number, after: lastEntry), number))
      }
    }
    guard sawHeader else { throw .missingHeader }
    return try EffectLine.gather(effectLines)
  }
}
