/// One line of the report: a store workload, the floors it is measured against and its target.
struct Workload {
  /// The short name used in the issue and the report: "W0", "L1", ...
  let name: String
  /// What the workload does, for the table.
  let summary: String
  /// The highest acceptable ratio of the store's median to the floor's.
  let targetRatio: Double
  /// Builds the runners: the store first, then the floors.
  let makeRunners: @MainActor () -> [any Runner]
  /// Which runner the ratio is taken against.
  let ratioFloor: Int
  /// Whether to report the peak memory of the store and its floor (see ``MemoryProbe``).
  let measuresMemory: Bool
  /// The memory probes of the store's side and the floor's, when ``measuresMemory`` is set.
  var memoryProbes = (store: MemoryProbe.Side.store, floor: MemoryProbe.Side.floor)
  /// For G1: the floor on the larger state and the same floor on 1,000 todos, whose
  /// per-repetition ratio says how the floor grows.
  var floorGrowth: (larger: Int, reference: Int)?
  /// The largest batch a repetition may perform, for workloads whose operation is a whole run.
  var maximumOperations = Int.max
  /// The most repetitions worth running, for workloads whose repetition takes seconds.
  var maximumRepetitions = Int.max

  /// Every workload, with action logs of `logEntries` entries for R1, R2 and R3.
  static func all(logEntries: Int) -> [Workload] {
    storeWorkloads + [rowModels] + [
      Workload(
        name: "R1", summary: "record \(logEntries) W1 updaters to a file (ns per entry)",
        targetRatio: 1.5,
        makeRunners: {
          [RecordingStoreRunner(entries: logEntries), EncodingFloor(entries: logEntries)]
        },
        ratioFloor: 1, measuresMemory: false, maximumOperations: 1, maximumRepetitions: 5),
      Workload(
        name: "R3",
        summary: "record \(logEntries) W1 updaters with diffs (ns per entry); the ratio is to R1",
        targetRatio: 3,
        makeRunners: {
          [
            RecordingStoreRunner(entries: logEntries, recordsDiffs: true),
            RecordingStoreRunner(entries: logEntries, name: "R1 store"),
          ]
        },
        ratioFloor: 1, measuresMemory: false, maximumOperations: 1, maximumRepetitions: 5),
      Workload(
        name: "R2", summary: "replay that file (ns per entry)", targetRatio: 1.5,
        makeRunners: {
          let file = recordReplayFile(entries: logEntries)
          return [
            ReplayStoreRunner(entries: logEntries, file: file),
            DecodingFloor(entries: logEntries, file: file),
          ]
        },
        ratioFloor: 1, measuresMemory: false, maximumOperations: 1, maximumRepetitions: 5),
      Workload(
        name: "I1",
        summary: "index the lines of a \(logEntries.formatted())-entry log for the inspector "
          + "(ns per entry)",
        targetRatio: 1.5,
        makeRunners: {
          let file = recordReplayFile(entries: logEntries)
          return [
            LineIndexRunner(entries: logEntries, file: file),
            LineSplitFloor(entries: logEntries, file: file),
          ]
        },
        ratioFloor: 1, measuresMemory: false, maximumOperations: 1, maximumRepetitions: 9),
      Workload(
        name: "I2",
        summary: "the inspector's terminal interface reads a \(logEntries.formatted())-entry log "
          + "whole (ns per entry); the floor is I1's",
        targetRatio: 1.5,
        makeRunners: {
          let file = recordReplayFile(entries: logEntries)
          return [
            InterfaceIndexRunner(entries: logEntries, file: file),
            LineSplitFloor(entries: logEntries, file: file),
          ]
        },
        ratioFloor: 1, measuresMemory: false, maximumOperations: 1, maximumRepetitions: 9),
      Workload(
        name: "I3",
        summary: "I2 against a floor that reads the file as the interface does, a chunk at a "
          + "time (ns per entry)",
        targetRatio: 1.5,
        makeRunners: {
          let file = recordReplayFile(entries: logEntries)
          return [
            InterfaceIndexRunner(entries: logEntries, file: file),
            ChunkedSplitFloor(entries: logEntries, file: file),
          ]
        },
        ratioFloor: 1, measuresMemory: false, maximumOperations: 1, maximumRepetitions: 9),
    ] + persistenceWorkloads(logEntries: logEntries) + [shrinkWorkload(logEntries: logEntries)]
  }

  /// P1 to P4: `StatePersistence`'s journaled store and snapshot file.
  ///
  /// P2 dispatches a tenth of `logEntries` (100,000 in a full run), P3 opens a journal of
  /// `logEntries`.
  static func persistenceWorkloads(logEntries: Int) -> [Workload] {
    let durable = max(10, logEntries / 10)
    return [
      Workload(
        name: "P1", summary: "W1 on a journaled store, timed on the store's actor",
        targetRatio: 1.5,
        makeRunners: {
          [
            JournaledToggleRunner(), ToggleStoreRunner(name: "W1 store"),
            CauseReadingToggleRunner(),
          ]
        },
        ratioFloor: 1, measuresMemory: false, maximumOperations: 100_000),
      Workload(
        name: "P2",
        summary: "\(durable.formatted()) W1 updaters dispatched to a journaled store, then "
          + "flushed (ns per entry)",
        targetRatio: 2,
        makeRunners: {
          let store = DurableStoreRunner(entries: durable)
          return [store, DurableWriteFloor(entries: durable, sizedLike: store)]
        },
        ratioFloor: 1, measuresMemory: false, maximumOperations: 1, maximumRepetitions: 5),
      Workload(
        name: "P3",
        summary: "open a journal of \(logEntries.formatted()) entries with a snapshot at 99 % "
          + "(ns per open)",
        targetRatio: 1.5,
        makeRunners: {
          let fixture = OpeningFixture(entries: logEntries)
          return [OpeningStoreRunner(fixture: fixture), OpeningFloor(fixture: fixture)]
        },
        ratioFloor: 1, measuresMemory: false, maximumOperations: 1, maximumRepetitions: 9),
      Workload(
        name: "P4",
        summary: "1,000 changes to a 1 MB slice kept by a SnapshotFile, written once (ns per "
          + "change)",
        targetRatio: 2,
        makeRunners: { [CoalescedSaveRunner(), SingleSaveFloor()] }, ratioFloor: 1,
        measuresMemory: false, maximumOperations: 1, maximumRepetitions: 9),
    ]
  }

  /// SH1: a recorded session shrunk to the entries its bug needs, with `SessionShrinker`.
  ///
  /// 10,000 entries, or `logEntries` when fewer (200 in a smoke run).
  static func shrinkWorkload(logEntries: Int) -> Workload {
    let entries = min(logEntries, 10_000)
    return Workload(
      name: "SH1",
      summary: "shrink a \(entries.formatted())-entry session whose bug needs 3 of its entries "
        + "(ns per entry); the floor replays it once",
      targetRatio: 250,
      makeRunners: { [ShrinkRunner(entries: entries), ShrinkReplayFloor(entries: entries)] },
      ratioFloor: 1, measuresMemory: false, maximumOperations: 1, maximumRepetitions: 5)
  }

  static let storeWorkloads: [Workload] =
    coreWorkloads + effectWorkloads + [subscribeWorkload] + growthWorkloads

  static let coreWorkloads: [Workload] = [
    Workload(
      name: "W0", summary: "increment the counter, no subscribers", targetRatio: 5,
      makeRunners: { [CounterStoreRunner(), CounterFloor()] }, ratioFloor: 1,
      measuresMemory: false),
    Workload(
      name: "W1", summary: "toggle todo i % 1000 of 1,000, no subscribers", targetRatio: 10,
      makeRunners: { [ToggleStoreRunner(), ToggleFloor()] }, ratioFloor: 1,
      measuresMemory: false),
    Workload(
      name: "W2", summary: "W1 + 100 row subscribers", targetRatio: 10,
      makeRunners: {
        [
          ToggleStoreRunner(subscribers: 100), NaiveFloor(subscribers: 100),
          IndexedFloor(subscribers: 100),
        ]
      }, ratioFloor: 2, measuresMemory: false),
    Workload(
      name: "W3", summary: "W1 + 10,000 row subscribers", targetRatio: 3,
      makeRunners: {
        [
          ToggleStoreRunner(subscribers: 10_000), NaiveFloor(subscribers: 10_000),
          IndexedFloor(subscribers: 10_000),
        ]
      }, ratioFloor: 2, measuresMemory: true),
    Workload(
      name: "L1", summary: "W1 + one (old, new) listener", targetRatio: 1.2,
      makeRunners: { [ToggleStoreRunner(listens: true), CopyFloor()] }, ratioFloor: 1,
      measuresMemory: false),
    Workload(
      name: "S1", summary: "W1 dispatched through app.scope(state: \\.feature)", targetRatio: 10,
      makeRunners: { [ScopedToggleRunner(), ToggleFloor(), RootStoreRunner()] }, ratioFloor: 1,
      measuresMemory: false),
    Workload(
      name: "S2",
      summary: "W1 dispatched through app.scope(state: \\.outer).scope(state: \\.feature), a scope "
        + "of a scope",
      targetRatio: 10,
      makeRunners: { [ScopedToggleRunner(nested: true), ToggleFloor(), RootStoreRunner()] },
      ratioFloor: 1, measuresMemory: false),
    Workload(
      name: "S3", summary: "W3's 10,000 row subscribers under the scope", targetRatio: 5,
      makeRunners: {
        [
          ScopedToggleRunner(subscribers: 10_000), NaiveFloor(subscribers: 10_000),
          IndexedFloor(subscribers: 10_000),
        ]
      }, ratioFloor: 2, measuresMemory: false),
    Workload(
      name: "S4",
      summary: "W1 dispatched through the toggled row's element scope, 1,000 element scopes "
        + "each with a view model; the ratio is to W2's store",
      // Restated with the safe core: a scope's runtime of its own is worth up to twice W2.
      targetRatio: 2,
      makeRunners: {
        [ElementScopeToggleRunner(), ToggleStoreRunner(subscribers: 100, name: "W2 store")]
      }, ratioFloor: 1, measuresMemory: false),
    Workload(
      name: "S5",
      summary: "W1 at the root, 100 mounted scopes each with a view model; the ratio is to W1 "
        + "on the same state with no scope",
      targetRatio: 1.5,
      makeRunners: {
        [MountedScopesRunner(scopes: 100), MountedScopesRunner(scopes: 0), SliceComparisonFloor()]
      },
      ratioFloor: 1, measuresMemory: false),
    Workload(
      name: "V1", summary: "W1 + 1,000 row views connected with connect(_:to:id:)",
      targetRatio: 1.5,
      makeRunners: {
        [
          ConnectedRowsRunner(views: 1_000),
          ToggleStoreRunner(subscribers: 1_000, name: "subscribe floor"),
        ]
      }, ratioFloor: 1, measuresMemory: false),
    Workload(
      name: "O1", summary: "W1 + one observe(_:) model read after each dispatch",
      targetRatio: 1.5,
      makeRunners: { [DoneCountRunner(observes: true), DoneCountRunner(observes: false)] },
      ratioFloor: 1, measuresMemory: false),
  ]

  /// E1 and E2: side effects, awaited one at a time and launched by the ten thousand; E3: E1
  /// recorded in an action log.
  static let effectWorkloads: [Workload] = [
    Workload(
      name: "E1",
      summary: "await a side effect that dispatches one updater, from a task off the main actor",
      targetRatio: 3,
      makeRunners: { [AwaitedEffectRunner(), AwaitedTaskFloor()] }, ratioFloor: 1,
      measuresMemory: false),
    Workload(
      name: "E2",
      summary: "launch \(effectBatch) effects that each dispatch one updater, await them all "
        + "(ns per effect)",
      targetRatio: 3,
      makeRunners: { [LaunchedEffectsRunner(), LaunchedTasksFloor()] }, ratioFloor: 1,
      measuresMemory: true,
      memoryProbes: (store: .launchedEffects, floor: .launchedTasks), maximumOperations: 1),
    Workload(
      name: "E3",
      summary: "E1 with the effect recorded in an action log: its start, one value through "
        + "context.recorded, its end (buffered file); the ratio is to E1's store",
      targetRatio: 3,
      makeRunners: {
        [RecordedEffectRunner(), AwaitedEffectRunner(name: "E1 store")]
      }, ratioFloor: 1, measuresMemory: false),
  ]

  /// SUB: what subscribing and cancelling costs, per subscriber.
  static let subscribeWorkload = Workload(
    name: "SUB",
    summary: "subscribe \(subscribeBatch) row subscribers, cancel them (ns per subscriber)",
    // Subscribing is not a hot path: restated with the safe core.
    targetRatio: 5,
    makeRunners: { [SubscribeCancelRunner(), BucketFloor()] }, ratioFloor: 1,
    measuresMemory: false)

  /// G1: W1 on 10,000 and 100,000 todos, against the store's own W1 on 1,000 in the same run.
  static let growthWorkloads: [Workload] = [10_000, 100_000].map { todos in
    Workload(
      name: "G1-\(todos / 1_000)k",
      summary: "W1 on \(todos.formatted()) todos; the ratio is to the store's W1 on 1,000",
      targetRatio: 1.5,
      makeRunners: {
        [
          ToggleStoreRunner(todos: todos),
          ToggleStoreRunner(name: ToggleStoreRunner.referenceLabel),
          ToggleFloor(todos: todos), ToggleFloor(),
        ]
      }, ratioFloor: 1, measuresMemory: false, floorGrowth: (larger: 2, reference: 3))
  }

  /// Every workload's name, and each family's ("G1"), upper-cased as `--only` compares them.
  static var allNames: Set<String> {
    let names = all(logEntries: 0).map { $0.name.uppercased() }
    return Set(names + names.map { String($0.prefix { $0 != "-" }) })
  }

  /// Whether `requested`, a name given to `--only`, selects this workload: its own name, or
  /// its family ("G1" selects G1-10k and G1-100k), in any case.
  func isSelected(by requested: Set<String>) -> Bool {
    let upper = name.uppercased()
    return requested.contains(upper)
      || requested.contains(String(upper.prefix { $0 != "-" }))
  }
}
