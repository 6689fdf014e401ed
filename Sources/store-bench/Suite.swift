/// Runs the selected workloads and collects their results.
@MainActor
func runSuite(_ options: Options) -> [WorkloadResult] {
  let schedule = schedule(for: options)
  var results: [WorkloadResult] = []
  let logEntries =
    switch options.mode {
    case .full: 1_000_000
    case .quick: 10_000
    case .smoke: 200
    }
  for workload in Workload.all(logEntries: logEntries)
  where options.workloads?.contains(workload.name) ?? true {
    results.append(run(workload, schedule: schedule))
  }
  return results
}

private func schedule(for options: Options) -> Schedule {
  switch options.mode {
  case .full:
    Schedule(
      repetitions: options.repetitions ?? 9, repetitionTime: 100_000_000, fixedOperations: nil)
  case .quick:
    Schedule(
      repetitions: options.repetitions ?? 5, repetitionTime: 20_000_000, fixedOperations: nil)
  case .smoke:
    Schedule(repetitions: options.repetitions ?? 5, repetitionTime: 0, fixedOperations: 20)
  }
}

@MainActor
private func run(_ workload: Workload, schedule: Schedule) -> WorkloadResult {
  var schedule = schedule
  schedule.maximumOperations = workload.maximumOperations
  schedule.repetitions = Swift.min(schedule.repetitions, workload.maximumRepetitions)
  let runners = workload.makeRunners()
  let measurement = measure(runners, schedule: schedule)
  let store = measurement.statistics[0]
  let floor = measurement.statistics[workload.ratioFloor]
  let ratio = store.median / floor.median
  let naive = runners.firstIndex { $0.name == "naive floor" }.map {
    measurement.statistics[$0].median
  }
  let root = runners.firstIndex { $0.name == RootStoreRunner.label }.map {
    measurement.statistics[$0].median
  }
  let peakMemoryBytes = workload.measuresMemory ? MemoryProbe.spawn(.store) : nil
  let floorPeakMemoryBytes = workload.measuresMemory ? MemoryProbe.spawn(.floor) : nil
  let memoryRatio = peakMemoryBytes.flatMap { bytes in
    floorPeakMemoryBytes.map { Double(bytes) / Double(Swift.max($0, 1)) }
  }
  return WorkloadResult(
    workload: workload.name,
    medianNanoseconds: store.median, minNanoseconds: store.min, maxNanoseconds: store.max,
    floor: runners[workload.ratioFloor].name,
    floorMedianNanoseconds: floor.median, floorMinNanoseconds: floor.min,
    floorMaxNanoseconds: floor.max,
    ratio: ratio, targetRatio: workload.targetRatio, meetsTarget: ratio <= workload.targetRatio,
    naiveFloorMedianNanoseconds: naive,
    rootStoreMedianNanoseconds: root, scopeOverRoot: root.map { store.median / $0 },
    repetitions: schedule.repetitions,
    correct: measurement.failures.isEmpty, failures: measurement.failures,
    peakMemoryBytes: peakMemoryBytes, floorPeakMemoryBytes: floorPeakMemoryBytes,
    memoryRatio: memoryRatio,
    summary: workload.summary)
}
