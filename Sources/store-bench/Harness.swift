import Dispatch

/// One implementation of a workload: the store, or one of the plain-code floors.
@MainActor
protocol Runner: AnyObject {
  /// What this runner is, as the report names it ("store", "indexed floor", ...).
  var name: String { get }

  /// Performs `operations` more operations (dispatches, or their plain-code equivalent).
  ///
  /// Asynchronous so that the side-effect workloads can await their effects; the others are
  /// synchronous loops, called once per batch.
  func perform(_ operations: Int) async

  /// Checks everything observable against what `operations` operations must produce.
  ///
  /// - Returns: One message per failed check; empty when all pass.
  func verify(operations: Int) -> [String]

  /// How many entries one operation handles: the figures are per entry. 1 unless a whole log
  /// is one operation (R1, R2).
  var entriesPerOperation: Int { get }

  /// Gets ready for the next timed batch, untimed: the persistence workloads flush their
  /// journal or prepare their directory here, so that no runner's disk work from an earlier
  /// batch runs during another's.
  func settle() async
}

extension Runner {
  var entriesPerOperation: Int { 1 }

  func settle() async {}
}

/// How long and how often to measure.
struct Schedule {
  /// Measured repetitions, after the warm-up.
  var repetitions: Int
  /// How long one repetition of one runner should take, in nanoseconds.
  let repetitionTime: Double
  /// When set, every repetition performs exactly this many operations: no calibration.
  let fixedOperations: Int?
  /// Cap on operations per repetition, for workloads whose operation is a whole batch.
  var maximumOperations = Int.max
}

/// The median, minimum and maximum of one runner's repetitions, in nanoseconds per operation.
struct Statistics {
  let median: Double
  let min: Double
  let max: Double

  init(_ samples: [Double]) {
    let sorted = samples.sorted()
    let middle = sorted.count / 2
    median =
      sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    min = sorted.first ?? .nan
    max = sorted.last ?? .nan
  }
}

/// What measuring a group of runners produced.
struct Measurement {
  /// Each runner's nanoseconds per entry, one sample per repetition, in repetition order.
  let samples: [[Double]]
  let failures: [String]

  var statistics: [Statistics] { samples.map(Statistics.init) }

  /// Runner `numerator`'s sample divided by runner `denominator`'s, repetition by repetition.
  ///
  /// The two ran back to back within each repetition, so a burst of load from another process
  /// that slows both cancels out of each ratio, where it would not cancel out of the ratio of
  /// two medians taken from different repetitions.
  func ratios(_ numerator: Int, over denominator: Int) -> Statistics {
    Statistics(zip(samples[numerator], samples[denominator]).map { $0 / $1 })
  }
}

/// Nanoseconds on a monotonic clock.
func now() -> UInt64 {
  DispatchTime.now().uptimeNanoseconds
}

/// Warms every runner up, then measures them in turn, repetition by repetition.
///
/// Interleaving the runners means that a burst of load from another process on this shared
/// machine lands on the store and its floors alike instead of on one of them.
@MainActor
func measure(_ runners: [any Runner], schedule: Schedule) async -> Measurement {
  var totals = [Int](repeating: 0, count: runners.count)
  var batch = [Int](repeating: 0, count: runners.count)
  for (index, runner) in runners.enumerated() {
    if let requested = schedule.fixedOperations {
      let fixed = Swift.min(requested, schedule.maximumOperations)
      await runner.settle()
      await runner.perform(fixed)
      totals[index] += fixed
      batch[index] = fixed
      continue
    }
    // Warm-up doubles as calibration: double the batch until it takes a quarter of a repetition.
    var operations = 1
    while true {
      await runner.settle()
      let start = now()
      await runner.perform(operations)
      let elapsed = Double(now() - start)
      totals[index] += operations
      if elapsed >= schedule.repetitionTime / 4 || operations >= schedule.maximumOperations {
        let perOperation = elapsed / Double(operations)
        let wanted = Int(schedule.repetitionTime / Swift.max(perOperation, 0.01))
        batch[index] = Swift.min(Swift.max(wanted, 1), schedule.maximumOperations)
        break
      }
      operations = Swift.min(operations * 2, schedule.maximumOperations)
    }
  }
  var samples = [[Double]](repeating: [], count: runners.count)
  for _ in 0..<schedule.repetitions {
    for (index, runner) in runners.enumerated() {
      let operations = batch[index]
      for other in runners { await other.settle() }
      let start = now()
      await runner.perform(operations)
      let elapsed = Double(now() - start)
      totals[index] += operations
      samples[index].append(elapsed / Double(operations * runner.entriesPerOperation))
    }
  }
  var failures: [String] = []
  for (index, runner) in runners.enumerated() {
    failures += runner.verify(operations: totals[index]).map { "\(runner.name): \($0)" }
  }
  return Measurement(samples: samples, failures: failures)
}
