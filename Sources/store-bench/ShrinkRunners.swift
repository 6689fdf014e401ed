import ActionLog
import Foundation
import StateStore

/// An item of SH1's session.
struct ShrinkItem: Identifiable, Codable, Sendable, Hashable {
  var id: Int
  var count = 0
  var flagged = false
}

/// SH1's state: items, each counted and flagged.
struct ShrinkState: State, Codable, Hashable {
  var items = TrackedArray<ShrinkItem>()
}

/// Adds an item.
struct AddItem: StateUpdater, Codable {
  let id: Int

  func updateState(_ state: inout ShrinkState) {
    state.items.append(ShrinkItem(id: id))
  }
}

/// Flags or unflags an item.
struct FlagItem: StateUpdater, Codable {
  let id: Int
  let flagged: Bool

  func updateState(_ state: inout ShrinkState) {
    state.items[id: id]?.flagged = flagged
  }
}

/// Counts an item, with SH1's planted bug: counting a flagged item unflags it.
struct CountItem: StateUpdater, Codable {
  let id: Int

  func updateState(_ state: inout ShrinkState) {
    state.items[id: id]?.count += 1
    state.items[id: id]?.flagged = false
  }
}

/// SH1's session: `entries` entries recorded in diff mode, about 200 items added, flagged and
/// counted at random (from a fixed seed), and the three entries the bug needs: item
/// ``ShrinkSession/target`` added, flagged, then counted, at a tenth, a half and nine tenths
/// of the session.
enum ShrinkSession {
  static let target = 1_000_000

  static func makeRegistry() -> ActionLogRegistry<ShrinkState> {
    ActionLogRegistry<ShrinkState>().register(AddItem.self).register(FlagItem.self)
      .register(CountItem.self)
  }

  /// The failure: the target item should still be flagged.
  static func check() -> SessionCheck<ShrinkState>? {
    try? .expect("/items[id=\(target)]/flagged", equals: .bool(true))
  }

  @MainActor
  static func record(entries: Int) -> Data {
    let store = Store<ShrinkState, Void>(initialState: ShrinkState())
    guard
      let recorder = try? ActionRecorder(
        store: store, registry: makeRegistry(), destination: .memory,
        options: .init(recordsDiffs: true, recordsSites: false))
    else { return Data() }
    var random: UInt64 = 44
    func next(_ bound: Int) -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((random >> 33) % UInt64(bound))
    }
    let bugSteps = [entries / 10: 0, entries / 2: 1, entries * 9 / 10: 2]
    var items = 0
    for step in 0..<entries {
      switch bugSteps[step] {
      case 0: store.dispatch(AddItem(id: target))
      case 1: store.dispatch(FlagItem(id: target, flagged: true))
      case 2: store.dispatch(CountItem(id: target))
      default:
        if items < 200, items == 0 || next(4) == 0 {
          items += 1
          store.dispatch(AddItem(id: items))
        } else if next(2) == 0 {
          store.dispatch(FlagItem(id: 1 + next(items), flagged: next(2) == 0))
        } else {
          store.dispatch(CountItem(id: 1 + next(items)))
        }
      }
    }
    try? recorder.stop()
    return recorder.recordedData
  }
}

/// SH1 through the library: shrinks the session to the entries its bug needs; one operation
/// is a whole shrink, reported per entry of the session.
@MainActor
final class ShrinkRunner: Runner {
  let name = "shrinker"
  let entries: Int
  let log: Data
  /// How many steps the last shrink kept: 3 when it found the bug's entries.
  private(set) var resultLength: Int?
  /// How many sub-sessions the last shrink replayed.
  private(set) var replays = 0
  private var failures: [String] = []

  init(entries: Int) {
    self.entries = entries
    log = ShrinkSession.record(entries: entries)
  }

  var entriesPerOperation: Int { entries }

  func perform(_ operations: Int) {
    guard let check = ShrinkSession.check() else { return }
    let shrinker = SessionShrinker(registry: ShrinkSession.makeRegistry())
    for _ in 0..<operations {
      do {
        let shrunk = try shrinker.shrink(log, until: check)
        resultLength = shrunk.steps.count
        replays = shrunk.checksRun
      } catch {
        failures.append("the shrink failed: \(error)")
      }
    }
  }

  func verify(operations: Int) -> [String] {
    var failures = self.failures
    if resultLength != 3 {
      failures.append(
        "the shrunk session has \(resultLength.map(String.init) ?? "no") steps, not the bug's 3")
    }
    return failures
  }
}

/// SH1's floor: reads the session and replays it once, as one check of the whole session
/// does.
@MainActor
final class ShrinkReplayFloor: Runner {
  let name = "one replay"
  let entries: Int
  let log: Data
  private var flagged: Bool?

  init(entries: Int) {
    self.entries = entries
    log = ShrinkSession.record(entries: entries)
  }

  var entriesPerOperation: Int { entries }

  func perform(_ operations: Int) {
    let replayer = ActionReplayer(registry: ShrinkSession.makeRegistry())
    for _ in 0..<operations {
      let state = try? replayer.replay(log)
      flagged = state?.items[id: ShrinkSession.target]?.flagged
    }
  }

  func verify(operations: Int) -> [String] {
    flagged == false ? [] : ["the replay did not end with the bug's unflagged item"]
  }
}
