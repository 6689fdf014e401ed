/// Runs the selected workloads and collects their results.
@MainActor
func runSuite(_ options: Options) async -> [WorkloadResult] {
  let schedule = schedule(for: options)
  var results: [WorkloadResult] = []
  let logEntries =
    switch options.mode {
    case .full: 1_000_000
    case .quick: 10_000
    case .smoke: 200
    }
  if options.mode != .smoke { settleProcessor(for: .seconds(3)) }
  for workload in Workload.all(logEntries: logEntries)
  where options.workloads.map(workload.isSelected(by:)) ?? true {
    results.append(await run(workload, schedule: schedule))
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
private func run(_ workload: Workload, schedule: Schedule) async -> WorkloadResult {
  var schedule = schedule
  schedule.maximumOperations = workload.maximumOperations
  schedule.repetitions = Swift.min(schedule.repetitions, workload.maximumRepetitions)
  let runners = workload.makeRunners()
  let measurement = await measure(runners, schedule: schedule)
  let statistics = measurement.statistics
  let store = statistics[0]
  let floor = statistics[workload.ratioFloor]
  let ratios = measurement.ratios(0, over: workload.ratioFloor)
  let floorGrowth = workload.floorGrowth.map {
    measurement.ratios($0.larger, over: $0.reference).median
  }
  let naive = runners.firstIndex { $0.name == "naive floor" }.map {
    statistics[$0].median
  }
  let comparison = runners.firstIndex { $0.name == SliceComparisonFloor.label }.map {
    statistics[$0].median
  }
  let cause = runners.firstIndex { $0.name == CauseReadingToggleRunner.label }.map {
    statistics[$0].median
  }
  let rootIndex = runners.firstIndex { $0.name == RootStoreRunner.label }
  let root = rootIndex.map { statistics[$0].median }
  let probes = workload.memoryProbes
  let peakMemoryBytes = workload.measuresMemory ? MemoryProbe.spawn(probes.store) : nil
  let floorPeakMemoryBytes = workload.measuresMemory ? MemoryProbe.spawn(probes.floor) : nil
  let memoryRatio = peakMemoryBytes.flatMap { bytes in
    floorPeakMemoryBytes.map { Double(bytes) / Double(Swift.max($0, 1)) }
  }
  let measuresCold = workload.measuresMemory && probes.store == .store
  let coldPeakMemoryBytes = measuresCold ? MemoryProbe.spawn(.storeCold) : nil
  let coldFloorPeakMemoryBytes = measuresCold ? MemoryProbe.spawn(.floorCold) : nil
  let coldMemoryRatio = coldPeakMemoryBytes.flatMap { bytes in
    coldFloorPeakMemoryBytes.map { Double(bytes) / Double(Swift.max($0, 1)) }
  }
  return WorkloadResult(
    workload: workload.name,
    medianNanoseconds: store.median, minNanoseconds: store.min, maxNanoseconds: store.max,
    floor: runners[workload.ratioFloor].name,
    floorMedianNanoseconds: floor.median, floorMinNanoseconds: floor.min,
    floorMaxNanoseconds: floor.max,
    ratio: ratios.median, ratioMin: ratios.min, ratioMax: ratios.max,
    ratioOfMedians: store.median / floor.median,
    targetRatio: workload.targetRatio, meetsTarget: ratios.median <= workload.targetRatio,
    naiveFloorMedianNanoseconds: naive,
    rootStoreMedianNanoseconds: root,
    scopeOverRoot: rootIndex.map { measurement.ratios(0, over: $0).median },
    comparisonFloorMedianNanoseconds: comparison,
    causeFloorMedianNanoseconds: cause,
    repetitions: schedule.repetitions,
    correct: measurement.failures.isEmpty, failures: measurement.failures,
    peakMemoryBytes: peakMemoryBytes, floorPeakMemoryBytes: floorPeakMemoryBytes,
    memoryRatio: memoryRatio, coldPeakMemoryBytes: coldPeakMemoryBytes,
    coldFloorPeakMemoryBytes: coldFloorPeakMemoryBytes, coldMemoryRatio: coldMemoryRatio,
    floorGrowth: floorGrowth,
    resultLength: (runners[0] as? ShrinkRunner)?.resultLength,
    summary: workload.summary)
}

/// Keeps one core busy for `duration` before anything is measured.
///
/// On this machine kind a processor that was idle runs the first two or three seconds of work
/// slower (W0's store and floor measured 7.9 and 2.0 ns at the start of a `--quick` run after
/// 20 idle seconds, 5.3 and 1.65 ns a few seconds later), which a full run's longer first
/// repetitions hid and `--quick`'s did not: its W1 read 10–11× against the full run's 8.6×.
private func settleProcessor(for duration: Duration) {
  let clock = ContinuousClock()
  let end = clock.now.advanced(by: duration)
  // Reading the clock is a call the optimiser cannot drop, so the loop stays.
  while clock.now < end {}
}
