import Foundation

/// Peak memory of W3 and E2, measured in fresh processes so that nothing freed earlier in the
/// run hides what a runner needs.
///
/// `store-bench --memory-probe store` (or `floor`) first warms its side up: it builds the same
/// runner with 10 subscribers, runs it once and drops it, so that the code it runs is paged in
/// and the runtime's type metadata made, as in an application that has run for a while. Then
/// it resets the kernel's peak-RSS mark, builds W3's store with its 10,000 subscribers (or the
/// indexed floor with its 10,000 closures), runs a full cycle of 1,000 toggles, and prints how
/// far the peak resident set (`VmHWM` in `/proc/self/status`) rose above the resident set
/// before building. Both sides hold the same 1,000 todos, so the difference between them is the
/// cost of the subscriptions. `store-cold` and `floor-cold` skip the warm-up, so they also count
/// what a process pays once, the first time it runs the code.
/// `launched-effects` and `launched-tasks` do the same around one E2 operation: 10,000 effects
/// (or plain tasks) in flight at once, then awaited.
enum MemoryProbe {
  /// The sides a probe can build.
  enum Side: String, CaseIterable {
    case store
    case floor
    case storeCold = "store-cold"
    case floorCold = "floor-cold"
    case launchedEffects = "launched-effects"
    case launchedTasks = "launched-tasks"
  }

  /// Runs in the child process: builds `side`, returns the peak growth in bytes, or `nil` when
  /// this system has no `/proc/self/status`.
  @MainActor
  static func measure(_ side: Side) async -> Int? {
    switch side {
    case .store: await warmUp(ToggleStoreRunner(subscribers: 10))
    case .floor: await warmUp(IndexedFloor(subscribers: 10))
    case .storeCold, .floorCold, .launchedEffects, .launchedTasks: break
    }
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    guard let before = residentBytes() else { return nil }
    let runner: any Runner =
      switch side {
      case .store, .storeCold: ToggleStoreRunner(subscribers: 10_000)
      case .floor, .floorCold: IndexedFloor(subscribers: 10_000)
      case .launchedEffects: LaunchedEffectsRunner()
      case .launchedTasks: LaunchedTasksFloor()
      }
    switch side {
    case .store, .floor, .storeCold, .floorCold: await runner.perform(todoCount)
    case .launchedEffects, .launchedTasks: await runner.perform(1)
    }
    guard let after = residentBytes() else { return nil }
    return withExtendedLifetime(runner) { Swift.max(after.peak - before.current, 0) }
  }

  /// Runs `runner` through a full cycle of toggles, then drops it.
  @MainActor
  private static func warmUp(_ runner: some Runner) async {
    await runner.perform(todoCount)
  }

  /// Runs in the parent: starts this executable as a probe for `side` and reads its answer.
  ///
  /// - Returns: The peak growth in bytes, or `nil` if the probe could not run or answer.
  static func spawn(_ side: Side) -> Int? {
    guard let executable = Bundle.main.executableURL,
      let output = outputOf(executable, ["--memory-probe", side.rawValue])
    else { return nil }
    return Int(output)
  }

  /// The current and peak resident set of this process, in bytes.
  static func residentBytes() -> (current: Int, peak: Int)? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    var current: Int?
    var peak: Int?
    for line in status.split(separator: "\n") {
      let fields = line.split(whereSeparator: \.isWhitespace)
      guard fields.count >= 2, let kibibytes = Int(fields[1]) else { continue }
      if fields[0] == "VmRSS:" { current = kibibytes * 1024 }
      if fields[0] == "VmHWM:" { peak = kibibytes * 1024 }
    }
    guard let current, let peak else { return nil }
    return (current, peak)
  }
}

/// Runs `executable` with `arguments` and returns what it printed, trimmed; `nil` if it could not
/// start or exited with a failure.
func outputOf(_ executable: URL, _ arguments: [String]) -> String? {
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  do {
    try process.run()
  } catch {
    return nil
  }
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else { return nil }
  return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}
