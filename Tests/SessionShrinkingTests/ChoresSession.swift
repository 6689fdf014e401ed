import Foundation
import StateStore
import StateStoreTesting

/// A recorded session of the chores feature, the same bytes on every run: chores added, done,
/// renamed and removed at random (from a fixed seed), some by an "ImportChores" effect two
/// updaters at a time, and among them the three entries the planted bug needs: chore
/// ``target`` added, marked done, then renamed.
enum ChoresSession {
  /// The chore the bug hits.
  static let target = 1000

  /// The check that fails on the recorded session: chore ``target`` should still be done.
  static func targetStaysDone() throws -> SessionCheck<ChoresState> {
    try .expect("/chores[id=\(target)]/done", equals: .bool(true))
  }

  /// Records `length` entries, in diff mode, with the bug planted or not.
  ///
  /// - Complexity: O(length).
  @MainActor
  static func record(length: Int = 300, bugPlanted: Bool = true) throws -> Data {
    try PlantedBug.$isPlanted.withValue(bugPlanted) {
      let store = Store<ChoresState, Void>(initialState: ChoresState())
      let recorder = try ActionRecorder(
        store: store, registry: .chores(), destination: .memory,
        options: .init(
          recordsDiffs: true, recordsSites: false, clock: { Date(timeIntervalSince1970: 0) }))
      var random = SeededRandom(seed: 44)
      var open: [Int] = []
      var nextID = 1
      let bugSteps = [length / 8, length / 2, length * 7 / 8]
      var step = 0
      while recorder.entriesRecorded < length {
        defer { step += 1 }
        if let bugStep = bugSteps.firstIndex(of: step) {
          switch bugStep {
          case 0: store.dispatch(AddChore(id: target, title: "Water the plants on the balcony"))
          case 1: store.dispatch(SetChoreDone(id: target, done: true))
          default: store.dispatch(RenameChore(id: target, title: "Water the plants"))
          }
          continue
        }
        if step % 25 == 24 {
          DispatchCause.$current.withValue(DispatchCause("ImportChores")) {
            store.dispatch(AddChore(id: nextID, title: "Imported chore \(nextID)"))
            store.dispatch(SetChoreDone(id: nextID, done: true))
          }
          open.append(nextID)
          nextID += 1
          continue
        }
        let choice = open.count < 3 ? 0 : random.next(below: 4)
        switch choice {
        case 0:
          store.dispatch(AddChore(id: nextID, title: "Chore number \(nextID)"))
          open.append(nextID)
          nextID += 1
        case 1:
          let id = open[random.next(below: open.count)]
          store.dispatch(SetChoreDone(id: id, done: random.next(below: 2) == 0))
        case 2:
          let id = open[random.next(below: open.count)]
          store.dispatch(RenameChore(id: id, title: "Renamed chore \(id)"))
        default:
          store.dispatch(RemoveChore(id: open.remove(at: random.next(below: open.count))))
        }
      }
      try recorder.stop()
      return recorder.recordedData
    }
  }
}

extension ChoresSession {
  /// The log of what `body` dispatches to a new store, recorded in memory with `options`
  /// (diff mode by default).
  @MainActor
  static func recording(
    options: ActionRecorder.Options = .init(recordsDiffs: true),
    _ body: (Store<ChoresState, Void>) -> Void
  ) throws -> Data {
    let store = Store<ChoresState, Void>(initialState: ChoresState())
    let recorder = try ActionRecorder(
      store: store, registry: .chores(), destination: .memory, options: options)
    body(store)
    try recorder.stop()
    return recorder.recordedData
  }
}

/// A linear congruential generator: the same numbers from the same seed, on every platform.
struct SeededRandom {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  /// A number in `0..<bound`.
  mutating func next(below bound: Int) -> Int {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Int((state >> 33) % UInt64(bound))
  }
}
