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
  /// The largest batch a repetition may perform, for workloads whose operation is a whole run.
  var maximumOperations = Int.max
  /// The most repetitions worth running, for workloads whose repetition takes seconds.
  var maximumRepetitions = Int.max

  /// Every workload, with action logs of `logEntries` entries for R1 and R2.
  static func all(logEntries: Int) -> [Workload] {
    storeWorkloads + [rowModels] + [
      Workload(
        name: "R1", summary: "record \(logEntries) W1 updaters to a file (ns per entry)",
        targetRatio: 2,
        makeRunners: {
          [RecordingStoreRunner(entries: logEntries), EncodingFloor(entries: logEntries)]
        },
        ratioFloor: 1, measuresMemory: false, maximumOperations: 1, maximumRepetitions: 5),
      Workload(
        name: "R2", summary: "replay that file (ns per entry)", targetRatio: 2,
        makeRunners: {
          let file = recordReplayFile(entries: logEntries)
          return [
            ReplayStoreRunner(entries: logEntries, file: file),
            DecodingFloor(entries: logEntries, file: file),
          ]
        },
        ratioFloor: 1, measuresMemory: false, maximumOperations: 1, maximumRepetitions: 5),
    ]
  }

  static let storeWorkloads: [Workload] = [
    Workload(
      name: "W0", summary: "increment the counter, no subscribers", targetRatio: 10,
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
      name: "W3", summary: "W1 + 10,000 row subscribers", targetRatio: 5,
      makeRunners: {
        [
          ToggleStoreRunner(subscribers: 10_000), NaiveFloor(subscribers: 10_000),
          IndexedFloor(subscribers: 10_000),
        ]
      }, ratioFloor: 2, measuresMemory: true),
    Workload(
      name: "L1", summary: "W1 + one (old, new) listener", targetRatio: 1.5,
      makeRunners: { [ToggleStoreRunner(listens: true), CopyFloor()] }, ratioFloor: 1,
      measuresMemory: false),
    Workload(
      name: "S1", summary: "W1 dispatched through app.scope(state: \\.feature)", targetRatio: 10,
      makeRunners: { [ScopedToggleRunner(), ToggleFloor(), RootStoreRunner()] }, ratioFloor: 1,
      measuresMemory: false),
    Workload(
      name: "S3", summary: "W3's 10,000 row subscribers under the scope", targetRatio: 5,
      makeRunners: {
        [
          ScopedToggleRunner(subscribers: 10_000), NaiveFloor(subscribers: 10_000),
          IndexedFloor(subscribers: 10_000),
        ]
      }, ratioFloor: 2, measuresMemory: false),
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

  static var allNames: Set<String> { Set(all(logEntries: 0).map(\.name)) }
}
