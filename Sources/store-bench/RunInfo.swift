import Foundation

/// What a run was measured on, printed with every figure so that a history of runs can be read
/// back: which commit, which compiler, how many CPUs, when, and how loaded the machine was.
struct RunInfo: Encodable {
  /// The commit measured: `STORE_BENCH_COMMIT` if set, else `git rev-parse HEAD` in the
  /// current directory; `nil` outside a git checkout.
  let commit: String?
  /// The Swift compiler the executable was built with.
  let swiftVersion: String
  /// The CPUs the process may run on.
  let cpuCount: Int
  /// When the run started, in ISO 8601 (UTC).
  let date: String
  /// The one-minute load average when the run started; `nil` where `/proc/loadavg` is missing.
  let loadAverage: Double?

  enum CodingKeys: String, CodingKey {
    case commit
    case swiftVersion = "swift_version"
    case cpuCount = "cpu_count"
    case date
    case loadAverage = "load_average"
  }

  /// The facts of this run, read now.
  static func current() -> RunInfo {
    RunInfo(
      commit: currentCommit(), swiftVersion: compilerVersion,
      cpuCount: ProcessInfo.processInfo.activeProcessorCount,
      date: Date.now.formatted(.iso8601), loadAverage: oneMinuteLoad())
  }

  /// The compiler's version, known at compile time.
  static var compilerVersion: String {
    #if compiler(>=6.5)
      "6.5 or later"
    #elseif compiler(>=6.4)
      "6.4"
    #elseif compiler(>=6.3)
      "6.3"
    #elseif compiler(>=6.2)
      "6.2"
    #else
      "before 6.2"
    #endif
  }

  private static func currentCommit() -> String? {
    if let commit = ProcessInfo.processInfo.environment["STORE_BENCH_COMMIT"], !commit.isEmpty {
      return commit
    }
    let commit = outputOf(URL(fileURLWithPath: "/usr/bin/env"), ["git", "rev-parse", "HEAD"])
    return commit?.isEmpty == false ? commit : nil
  }

  private static func oneMinuteLoad() -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8),
      let first = text.split(separator: " ").first
    else { return nil }
    return Double(first)
  }
}
