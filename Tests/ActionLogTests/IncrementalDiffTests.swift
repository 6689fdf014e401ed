import ActionLog
import Foundation
import StateStore
import Synchronization
import Testing

/// The diff mode re-encodes only what changed; these tests hold it to the diffs that encoding
/// the whole state before and after each entry gives.
@Suite("Diff mode: incremental diffs equal whole-state diffs")
@MainActor
struct IncrementalDiffTests {
  struct Item: Identifiable, Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var score: Double
    var tags: [String] = []
    var note: String?
    var blob: Data?
  }

  struct Nested: Codable, Equatable, Sendable {
    var rows = TrackedArray<Item>()
    var label = "rows"
  }

  struct Board: State, Codable, Equatable {
    var items = TrackedArray<Item>()
    var archive = TrackedArray<Item>()
    var counts: [String: Int] = [:]
    var title = ""
    var nested = Nested()
    var lists: [TrackedArray<Item>] = []
    var maybe: TrackedArray<Item>?
  }

  /// One random step; `kind` picks what it does, the other fields say with what.
  struct Step: StateUpdater, Codable {
    var kind: Int
    var first: Int
    var second: Int
    var text: String
    var number: Double

    static let keys = [
      "a10", "a2", "B", "b", "_x", "é", "ä", "ß", "\u{301}e", "", "x/y", "t~1", "Z", "ﬀ",
    ]
    static let numbers: [Double] = [0, 0.1, -0.0, 1e20, 1e-7, 123456789.125, 2.5, -3, 1e300]

    func updateState(_ state: inout Board) {
      let ids = state.items.ids
      let id = ids.isEmpty ? first : ids[first % ids.count]
      switch kind {
      case 0: state.items[id: id]?.title = text
      case 1: state.items[id: id]?.score = number
      case 2:
        state.items.insert(Item(id: 1000 + first, title: text, score: number), at: second)
      case 3: state.items.remove(id: id)
      case 4: state.items.move(id: id, to: second)
      case 5: state.items.sort { ($0.title, $0.id) < ($1.title, $1.id) }
      case 6: state.items.upsert(Item(id: id, title: text, score: number, note: text))
      case 7: state.counts[Self.keys[first % Self.keys.count]] = second
      case 8: state.counts[Self.keys[first % Self.keys.count]] = nil
      case 9: state.title = text
      case 10:
        if state.nested.rows.isEmpty {
          state.nested.rows = TrackedArray((0..<5).map { Item(id: $0, title: "r", score: 1) })
        }
        state.nested.rows[id: first % 5]?.tags.append(text)
      case 11:
        if state.lists.isEmpty || second % 3 == 0 {
          state.lists.append([Item(id: first, title: text, score: number)])
        } else {
          state.lists[0].upsert(Item(id: first % 3, title: text, score: number))
        }
      case 12:
        if state.maybe == nil || second % 4 == 0 {
          state.maybe = state.maybe == nil ? [Item(id: 1, title: text, score: number)] : nil
        } else {
          state.maybe?[id: 1]?.note = text
        }
      case 13:
        // More changes than the journal remembers: the array is encoded whole.
        for id in ids.prefix(40) { state.items[id: id]?.tags.append(text) }
      case 14:
        if let item = state.items.remove(id: id) { state.archive.append(item) }
      case 15: state.items[id: id]?.blob = Data(text.utf8)
      case 16:
        // Noted as a change, encoded the same: no operation.
        let title = state.items[id: id]?.title ?? ""
        state.items[id: id]?.title = title
      default: break
      }
    }
  }

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

  private static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  private func wholeEncoding(_ value: some Encodable) throws -> JSONValue {
    try JSONParser.parse(try Self.encoder.encode(value))
  }

  /// The diff of each entry, by `seq`, in the log `data`.
  private func recordedDiffs(_ data: Data) throws -> [Int: JSONValue] {
    var diffs: [Int: JSONValue] = [:]
    for line in data.split(separator: 0x0A) {
      let value = try JSONParser.parse(line)
      if let sequence = value["seq"]?.intValue { diffs[sequence] = value["diff"] }
    }
    return diffs
  }

  @Test("A seeded random session: every entry's diff is the whole-state diff", arguments: [1, 2])
  func randomSession(seed: UInt64) throws {
    var random = SeededGenerator(state: seed)
    var initial = Board()
    initial.items = TrackedArray((0..<60).map { Item(id: $0, title: "item \($0)", score: 1) })
    let store = Store<Board, Void>(initialState: initial)
    let recorder = try ActionRecorder(
      store: store, registry: ActionLogRegistry<Board>().register(Step.self),
      destination: .memory, options: .init(checkpointInterval: 97, recordsDiffs: true))
    var before = try wholeEncoding(store.state)
    var expected: [Int: JSONValue] = [:]
    let titles = ["a", "b", "milk", "ünïcode", "tab\there", "z"]
    for sequence in 1...1000 {
      let step = Step(
        kind: Int.random(in: 0...17, using: &random),
        first: Int.random(in: 0..<100, using: &random),
        second: Int.random(in: 0..<70, using: &random),
        text: titles[Int.random(in: 0..<titles.count, using: &random)],
        number: Step.numbers[Int.random(in: 0..<Step.numbers.count, using: &random)])
      store.dispatch(step)
      let after = try wholeEncoding(store.state)
      expected[sequence] = JSONChange.json(JSONChange.changes(from: before, to: after))
      before = after
    }
    let recorded = try recordedDiffs(recorder.recordedData)
    #expect(recorded.count == 1000)
    var mismatches = 0
    for sequence in 1...1000 where recorded[sequence] != expected[sequence] {
      mismatches += 1
      if mismatches <= 3 {
        Issue.record(
          """
          entry \(sequence): recorded \(recorded[sequence]?.text() ?? "none"), \
          whole-state \(expected[sequence]?.text() ?? "none")
          """)
      }
    }
    #expect(mismatches == 0)
  }

  /// A row whose contents live behind a reference: changing them notes nothing in the array.
  final class Counter: Identifiable, Codable, Sendable {
    let id: Int
    let value = Mutex(0)

    init(id: Int) { self.id = id }

    enum CodingKeys: CodingKey { case id, value }

    required init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      id = try container.decode(Int.self, forKey: .id)
      value.withLock { $0 = (try? container.decode(Int.self, forKey: .value)) ?? 0 }
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(value.withLock { $0 }, forKey: .value)
    }
  }

  struct Counters: State, Codable {
    var counters: TrackedArray<Counter> = [Counter(id: 1), Counter(id: 2)]
  }

  struct Bump: StateUpdater, Codable {
    func updateState(_ state: inout Counters) {
      state.counters[1].value.withLock { $0 += 1 }
    }
  }

  @Test("Rows that are references are encoded whole: a change behind one is still seen")
  func referenceRows() throws {
    let store = Store<Counters, Void>(initialState: Counters())
    let recorder = try ActionRecorder(
      store: store, registry: ActionLogRegistry<Counters>().register(Bump.self),
      destination: .memory, options: .init(recordsDiffs: true))
    store.dispatch(Bump())
    store.dispatch(Bump())
    let diffs = try recordedDiffs(recorder.recordedData)
    #expect(
      diffs[2]?.text() == #"[{"op":"replace","path":"/counters[id=2]/value","old":1,"value":2}]"#
    )
  }

  /// A state whose `encode(to:)` sets one key twice, the last time to the same tracked array.
  struct Doubled: State, Encodable {
    var items: TrackedArray<Item> = TrackedArray(
      (0..<4).map { Item(id: $0, title: "item \($0)", score: 1) })
    var others: TrackedArray<Item> = [Item(id: 9, title: "other", score: 2)]

    enum CodingKeys: CodingKey { case rows, spare }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(others, forKey: .spare)
      try container.encode(items, forKey: .rows)
      try container.encode(items, forKey: .rows)
      try container.encode(others, forKey: .spare)
    }
  }

  struct Retitle: StateUpdater, Codable {
    var id: Int
    var title: String

    func updateState(_ state: inout Doubled) {
      state.items[id: id]?.title = title
      state.others[id: id]?.title = title
    }
  }

  @Test("A key set twice to the same tracked array: its changes are in the diff all the same")
  func keySetTwice() throws {
    let store = Store<Doubled, Void>(initialState: Doubled())
    let recorder = try ActionRecorder(
      store: store, registry: ActionLogRegistry<Doubled>().register(Retitle.self),
      destination: .memory, options: .init(recordsDiffs: true))
    var before = try wholeEncoding(store.state)
    var expected: [Int: JSONValue] = [:]
    for (sequence, id) in [2, 9, 2, 0, 9].enumerated() {
      store.dispatch(Retitle(id: id, title: "title \(sequence)"))
      let after = try wholeEncoding(store.state)
      expected[sequence + 1] = JSONChange.json(JSONChange.changes(from: before, to: after))
      before = after
    }
    let recorded = try recordedDiffs(recorder.recordedData)
    #expect(recorded == expected)
    #expect(
      recorded[1]?.text()
        == #"[{"op":"replace","path":"/rows[id=2]/title","old":"item 2","value":"title 0"}]"#)
  }

  struct Reading: Identifiable, Codable, Equatable, Sendable {
    var id: Int
    var value: Double
  }

  struct Readings: State, Codable {
    var rows: TrackedArray<Reading> = [Reading(id: 1, value: 0), Reading(id: 2, value: 0)]
  }

  struct Measure: StateUpdater, Codable {
    var finite: Bool

    func updateState(_ state: inout Readings) {
      state.rows[id: 2]?.value = finite ? 1.5 : .infinity
    }
  }

  @Test("A value that cannot be encoded in a changed row: the failure names its coding path")
  func failureCodingPath() throws {
    let store = Store<Readings, Void>(initialState: Readings())
    let recorder = try ActionRecorder(
      store: store, registry: ActionLogRegistry<Readings>().register(Measure.self),
      destination: .memory, options: .init(recordsDiffs: true))
    var errors: [ActionLogError] = []
    recorder.onError = { errors.append($0) }
    store.dispatch(Measure(finite: true))
    store.dispatch(Measure(finite: false))
    #expect(
      try recordedDiffs(recorder.recordedData)[1]?.text()
        == #"[{"op":"replace","path":"/rows[id=2]/value","old":0,"value":1.5}]"#)
    guard errors.count == 1, case .encodingFailed(_, let reason) = errors[0] else {
      Issue.record("expected one encoding failure, got \(errors)")
      return
    }
    // The keys of the path, in order: the array's, the row's index, the member's.
    #expect(reason.contains("Path: rows[1].value."), "\(reason)")
  }
}
