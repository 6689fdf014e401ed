import Foundation
import Testing

/// One workload as `store-bench --json` prints it, with its snake-case keys converted.
private struct Row: Decodable {
  let workload: String
  let medianNs: Double
  let minNs: Double
  let maxNs: Double
  let floor: String
  let floorMedianNs: Double
  let ratio: Double
  let ratioMin: Double
  let ratioMax: Double
  let ratioOfMedians: Double
  let floorGrowth: Double?
  let commit: String?
  let swiftVersion: String
  let cpuCount: Int
  let date: String
  let correct: Bool
  let failures: [String]
  let peakMemoryBytes: Int?
  let floorPeakMemoryBytes: Int?
  let coldPeakMemoryBytes: Int?
  let coldFloorPeakMemoryBytes: Int?
  let rootStoreMedianNs: Double?
  let comparisonFloorMedianNs: Double?
  let causeFloorMedianNs: Double?
  let resultLength: Int?
}

@Suite("store-bench, run as a user runs it")
struct StoreBenchSmokeTests {
  @Test("--smoke --json exits 0 and reports every workload, correct, with its floor and ratio")
  func smokeRunReportsEveryWorkload() throws {
    let run = try runStoreBench(["--smoke", "--json"])
    #expect(run.status == 0, "stderr: \(run.error)")
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let rows = try decoder.decode([Row].self, from: Data(run.output.utf8))
    #expect(
      rows.map(\.workload) == [
        "W0", "W1", "W2", "W3", "L1", "S1", "S2", "S3", "S4", "S5", "V1", "O1", "E1", "E2", "E3",
        "SUB",
        "G1-10k", "G1-100k", "V2", "R1", "R3", "R2", "I1", "I2", "I3", "P1", "P2", "P3", "P4",
        "SH1",
      ])
    for row in rows {
      #expect(row.correct, "\(row.workload): \(row.failures)")
      #expect(row.failures.isEmpty)
      #expect(row.minNs <= row.medianNs && row.medianNs <= row.maxNs, "\(row.workload)")
      #expect(row.floorMedianNs > 0, "\(row.workload)")
      #expect(
        abs(row.ratioOfMedians - row.medianNs / row.floorMedianNs) < 1e-9 * row.ratioOfMedians)
      #expect(row.ratioMin <= row.ratio && row.ratio <= row.ratioMax, "\(row.workload)")
      #expect(row.cpuCount > 0)
      #expect(row.swiftVersion.first?.isNumber == true)
      #expect(row.date.hasPrefix("20") && row.date.hasSuffix("Z"))
    }
    #expect(Set(rows.map(\.date)).count == 1, "one run, one date")
    #expect(Set(rows.map(\.commit)).count == 1)
    let shrink = try #require(rows.first { $0.workload == "SH1" })
    #expect(shrink.resultLength == 3, "SH1 shrinks its session to the bug's 3 entries")
    let e2 = try #require(rows.first { $0.workload == "E2" })
    #expect((e2.peakMemoryBytes ?? 0) > 0)
    #expect((e2.floorPeakMemoryBytes ?? 0) > 0)
    for name in ["G1-10k", "G1-100k"] {
      let g1 = try #require(rows.first { $0.workload == name })
      #expect(g1.floor == "W1 store (1,000 todos)")
      #expect((g1.floorGrowth ?? 0) > 0)
    }
    #expect(rows.first { $0.workload == "SUB" }?.floor == "bucket floor")
    let s3 = try #require(rows.first { $0.workload == "S3" })
    #expect(s3.floor == "indexed floor")
    for name in ["S1", "S2"] {
      let scoped = try #require(rows.first { $0.workload == name })
      #expect((scoped.rootStoreMedianNs ?? 0) > 0)
    }
    #expect(rows.first { $0.workload == "S4" }?.floor == "W2 store")
    let s5 = try #require(rows.first { $0.workload == "S5" })
    #expect(s5.floor == "W1, no scopes")
    #expect((s5.comparisonFloorMedianNs ?? 0) > 0)
    let p1 = try #require(rows.first { $0.workload == "P1" })
    #expect((p1.causeFloorMedianNs ?? 0) > 0)
    let w3 = try #require(rows.first { $0.workload == "W3" })
    #expect(w3.floor == "indexed floor")
    #expect((w3.peakMemoryBytes ?? 0) > 0)
    #expect((w3.floorPeakMemoryBytes ?? 0) > 0)
    #expect((w3.coldPeakMemoryBytes ?? 0) > 0)
    #expect((w3.coldFloorPeakMemoryBytes ?? 0) > 0)
    #expect(e2.coldPeakMemoryBytes == nil, "E2's probes take no warm-up, so they have no cold twin")
    #expect(rows.first { $0.workload == "V1" }?.floor == "subscribe floor")
    #expect(rows.first { $0.workload == "O1" }?.floor == "subscribe floor")
    #expect(rows.first { $0.workload == "V2" }?.floor == "W2 store")
  }

  @Test("STORE_BENCH_COMMIT names the commit in the JSON")
  func commitFromEnvironment() throws {
    let run = try runStoreBench(
      ["--smoke", "--json", "--only", "W0"], environment: ["STORE_BENCH_COMMIT": "abc1234"])
    #expect(run.status == 0, "stderr: \(run.error)")
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let rows = try decoder.decode([Row].self, from: Data(run.output.utf8))
    #expect(rows.map(\.commit) == ["abc1234"])
  }

  @Test("the table names every workload and its floor")
  func tableNamesEveryWorkload() throws {
    let run = try runStoreBench(["--smoke", "--only", "W0,L1"])
    #expect(run.status == 0, "stderr: \(run.error)")
    #expect(run.output.contains("plain mutation floor"))
    #expect(run.output.contains("copy floor"))
    #expect(!run.output.contains("W3"))
  }

  @Test("an unknown option or workload exits 2 and says what was wrong")
  func badCommandLine() throws {
    let option = try runStoreBench(["--fast"])
    #expect(option.status == 2)
    #expect(option.error.contains("unknown option '--fast'"))
    let workload = try runStoreBench(["--only", "W9"])
    #expect(workload.status == 2)
    #expect(workload.error.contains("unknown workload W9"))
  }
}

/// What one run of the executable printed and how it ended.
struct BenchRun {
  let status: Int32
  let output: String
  let error: String
}

/// Runs the `store-bench` executable built next to the test bundle.
func runStoreBench(_ arguments: [String], environment: [String: String] = [:]) throws -> BenchRun {
  let process = Process()
  process.executableURL = productsDirectory.appendingPathComponent("store-bench")
  process.arguments = arguments
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  let output = Pipe()
  let error = Pipe()
  process.standardOutput = output
  process.standardError = error
  try process.run()
  // Read before waiting, so that a full pipe cannot stall the child; its standard error holds
  // a line or two, far below a pipe's capacity, so reading it second cannot block.
  let outputData = output.fileHandleForReading.readDataToEndOfFile()
  let errorText = error.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return BenchRun(
    status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
    error: String(decoding: errorText, as: UTF8.self))
}

/// Where SwiftPM put the products: the test bundle's directory on Linux, its parent on macOS.
private var productsDirectory: URL {
  #if os(macOS)
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      return bundle.bundleURL.deletingLastPathComponent()
    }
  #endif
  return Bundle.main.bundleURL
}
