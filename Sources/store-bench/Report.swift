import Foundation

/// One workload's figures, as printed in the table and by `--json`.
struct WorkloadResult: Encodable {
  let workload: String
  let medianNanoseconds: Double
  let minNanoseconds: Double
  let maxNanoseconds: Double
  let floor: String
  let floorMedianNanoseconds: Double
  let floorMinNanoseconds: Double
  let floorMaxNanoseconds: Double
  /// The median of the per-repetition ratios (store rep i ÷ floor rep i); see
  /// ``Measurement/ratios(_:over:)``.
  let ratio: Double
  let ratioMin: Double
  let ratioMax: Double
  /// The store's median over the floor's median, for comparison with older reports.
  let ratioOfMedians: Double
  let targetRatio: Double
  let meetsTarget: Bool
  /// The naive floor's median, for the workloads that have one besides the indexed floor.
  let naiveFloorMedianNanoseconds: Double?
  /// For S1 and S2: the root store's median on W1 in the same run, and the scope's figure over
  /// it.
  let rootStoreMedianNanoseconds: Double?
  let scopeOverRoot: Double?
  /// For S5: the comparison floor's median, the hundred slices' bytes compared once with no
  /// store, which every root update must pay under the rule that a scope skips a slice equal
  /// to the last.
  let comparisonFloorMedianNanoseconds: Double?
  /// For P1: the median of W1 on a plain store that reads the dispatch cause once per
  /// dispatch, as a journal that records causes must.
  let causeFloorMedianNanoseconds: Double?
  let repetitions: Int
  /// Whether every notification count, checksum and final state was as expected.
  let correct: Bool
  let failures: [String]
  let peakMemoryBytes: Int?
  let floorPeakMemoryBytes: Int?
  let memoryRatio: Double?
  /// The same growths and ratio measured without a warm-up (W3 only; see ``MemoryProbe``).
  let coldPeakMemoryBytes: Int?
  let coldFloorPeakMemoryBytes: Int?
  let coldMemoryRatio: Double?
  /// For G1: how the plain mutation floor grows with the todos (its median per-repetition
  /// ratio to the same floor on 1,000 todos).
  let floorGrowth: Double?
  /// For SH1: how many steps the shrunk session kept.
  let resultLength: Int?
  let summary: String

  enum CodingKeys: String, CodingKey {
    case workload
    case medianNanoseconds = "median_ns"
    case minNanoseconds = "min_ns"
    case maxNanoseconds = "max_ns"
    case floor
    case floorMedianNanoseconds = "floor_median_ns"
    case floorMinNanoseconds = "floor_min_ns"
    case floorMaxNanoseconds = "floor_max_ns"
    case ratio
    case ratioMin = "ratio_min"
    case ratioMax = "ratio_max"
    case ratioOfMedians = "ratio_of_medians"
    case targetRatio = "target_ratio"
    case meetsTarget = "meets_target"
    case naiveFloorMedianNanoseconds = "naive_floor_median_ns"
    case rootStoreMedianNanoseconds = "root_store_median_ns"
    case comparisonFloorMedianNanoseconds = "comparison_floor_median_ns"
    case causeFloorMedianNanoseconds = "cause_floor_median_ns"
    case scopeOverRoot = "scope_over_root"
    case repetitions
    case correct
    case failures
    case peakMemoryBytes = "peak_memory_bytes"
    case floorPeakMemoryBytes = "floor_peak_memory_bytes"
    case memoryRatio = "memory_ratio"
    case coldPeakMemoryBytes = "cold_peak_memory_bytes"
    case coldFloorPeakMemoryBytes = "cold_floor_peak_memory_bytes"
    case coldMemoryRatio = "cold_memory_ratio"
    case floorGrowth = "floor_growth"
    case resultLength = "result_length"
    case summary
  }
}

/// One workload's object in `--json`: its figures and the facts of the run, side by side.
private struct JSONRow: Encodable {
  let result: WorkloadResult
  let run: RunInfo

  func encode(to encoder: any Encoder) throws {
    // Both write into the same keyed container, so the object is flat.
    try result.encode(to: encoder)
    try run.encode(to: encoder)
  }
}

/// Prints `results` as JSON: an array holding one object per workload, one object per line,
/// each with the facts of the run.
func printJSON(_ results: [WorkloadResult], run: RunInfo) throws {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  let lines = try results.map {
    String(decoding: try encoder.encode(JSONRow(result: $0, run: run)), as: UTF8.self)
  }
  print("[\n  " + lines.joined(separator: ",\n  ") + "\n]")
}

/// Prints `results` as a table for people.
func printTable(_ results: [WorkloadResult], mode: Options.Mode, run: RunInfo) {
  print("store-bench (\(mode.rawValue)): ns per dispatch, median (min–max) over the repetitions;")
  print("ratio: median (min–max) of the per-repetition ratios store ÷ floor")
  print(
    "commit \(run.commit ?? "unknown"), Swift \(run.swiftVersion), \(run.cpuCount) CPUs, "
      + "\(run.date), load average \(run.loadAverage.map { format($0) } ?? "unknown")")
  print("")
  let header = [
    "workload", "store median (min–max)", "floor", "floor median (min–max)", "ratio (min–max)",
    "target",
  ]
  var rows = [header]
  for result in results {
    rows.append([
      result.workload,
      spread(result.medianNanoseconds, result.minNanoseconds, result.maxNanoseconds),
      result.floor,
      spread(result.floorMedianNanoseconds, result.floorMinNanoseconds, result.floorMaxNanoseconds),
      format(result.ratio) + "× (" + format(result.ratioMin) + "–" + format(result.ratioMax) + ")",
      "≤" + format(result.targetRatio) + "× " + (result.meetsTarget ? "met" : "MISSED"),
    ])
  }
  let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
  for row in rows {
    let cells = row.indices.map { column in
      let cell = row[column]
      let padding = String(repeating: " ", count: widths[column] - cell.count)
      return column == 0 || column == 2 ? cell + padding : padding + cell
    }
    print(cells.joined(separator: "  "))
  }
  print("")
  for result in results {
    if let root = result.rootStoreMedianNanoseconds, let over = result.scopeOverRoot {
      print(
        "\(result.workload): W1 on the root store in the same run \(format(root)) ns; "
          + "scope / root = \(format(over))× (target ≤1.25×)")
    }
    if let comparison = result.comparisonFloorMedianNanoseconds {
      let base = result.floorMedianNanoseconds
      print(
        "\(result.workload): the slices' byte comparison alone \(format(comparison)) ns, "
          + "\(format(comparison / base))× the \(result.floor) figure; store / (\(result.floor) + "
          + "comparison) = \(format(result.medianNanoseconds / (base + comparison)))×")
    }
    if let cause = result.causeFloorMedianNanoseconds {
      let base = result.floorMedianNanoseconds
      print(
        "\(result.workload): W1 reading the dispatch cause once per dispatch \(format(cause)) ns, "
          + "\(format(cause / base))× the \(result.floor); store / that = "
          + "\(format(result.medianNanoseconds / cause))×")
    }
    if let naive = result.naiveFloorMedianNanoseconds {
      print(
        "\(result.workload): naive floor (every subscriber compares) \(format(naive)) ns; "
          + "store / naive floor = \(format(result.medianNanoseconds / naive))×")
    }
    if let bytes = result.peakMemoryBytes, let floorBytes = result.floorPeakMemoryBytes,
      let memoryRatio = result.memoryRatio
    {
      print(
        "\(result.workload): peak memory growth of the store side \(kibibytes(bytes)), "
          + "of the \(result.floor) \(kibibytes(floorBytes)): \(format(memoryRatio))×"
          + (result.workload == "W3" ? " (target ≤2×)" : ""))
    }
    if let bytes = result.coldPeakMemoryBytes, let floorBytes = result.coldFloorPeakMemoryBytes,
      let memoryRatio = result.coldMemoryRatio
    {
      print(
        "\(result.workload): the same in cold processes (code paged in and type metadata made "
          + "on first use counted too): \(kibibytes(bytes)) and \(kibibytes(floorBytes)): "
          + "\(format(memoryRatio))×")
    }
    if let length = result.resultLength {
      print("\(result.workload): the shrunk session has \(length) steps")
    }
    if let growth = result.floorGrowth {
      print(
        "\(result.workload): the plain mutation floor costs \(format(growth))× what it costs on "
          + "1,000 todos")
    }
  }
  for result in results {
    print("\(result.workload): \(result.summary)", result.correct ? "" : "— CHECKS FAILED")
    for failure in result.failures {
      print("  ✗ \(failure)")
    }
  }
}

private func spread(_ median: Double, _ min: Double, _ max: Double) -> String {
  "\(format(median)) (\(format(min))–\(format(max)))"
}

private func kibibytes(_ bytes: Int) -> String {
  format(Double(bytes) / 1024) + " KiB"
}

/// Three significant digits, and no more than needed: 1.6, 27.4, 541, 15,900.
func format(_ value: Double) -> String {
  guard value.isFinite else { return "n/a" }
  let digits = value >= 100 ? 0 : value >= 10 ? 1 : 2
  return value.formatted(.number.precision(.fractionLength(digits)))
}
