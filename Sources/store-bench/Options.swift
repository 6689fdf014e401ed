/// What the command line asked for.
struct Options: Equatable {
  /// How long the run may take, and so how many operations each repetition performs.
  enum Mode: String, Equatable {
    /// About ten seconds of measurement per workload: the figures in `Docs/Performance.md`.
    case full
    /// A run well under a minute, for a quick look.
    case quick
    /// A few operations per repetition: checks that every workload runs and stays correct.
    case smoke
  }

  var mode = Mode.full
  var json = false
  var repetitions: Int?
  var workloads: Set<String>?
  var showHelp = false
  /// Set in the child processes that measure W3's and E2's peak memory (see ``MemoryProbe``).
  var memoryProbe: MemoryProbe.Side?

  static let usage = """
    usage: store-bench [--quick | --smoke] [--json] [--repetitions N] [--only W0,W1,...]

      --quick          shorter repetitions: the whole run takes well under a minute
      --smoke          a handful of operations per repetition: checks correctness, not speed
      --json           one JSON object per workload instead of the table
      --repetitions N  measured repetitions after the warm-up (at least 5; default 9, quick 5)
      --only LIST      run only these workloads (W0, W1, W2, W3, L1, S1, S2, S3, S4, S5, V1,
                       O1, E1, E2, E3, SUB, G1 (both G1-10k and G1-100k), V2, R1, R2,
                       R3, I1, I2, I3, P1, P2, P3, P4)
      --help           this text

    Every workload checks that subscribers were told exactly as often as expected; the run
    exits with status 1 if any check fails, and 2 on a bad command line.
    """

  /// Parses `arguments` (without the program name).
  static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var options = Options()
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "--quick": options.mode = .quick
      case "--smoke": options.mode = .smoke
      case "--json": options.json = true
      case "--help", "-h": options.showHelp = true
      case "--repetitions":
        guard let value = remaining.popFirst(), let count = Int(value), count >= 5 else {
          throw UsageError(message: "--repetitions needs a whole number of at least 5")
        }
        options.repetitions = count
      case "--memory-probe":
        guard let value = remaining.popFirst(), let side = MemoryProbe.Side(rawValue: value) else {
          throw UsageError(
            message: "--memory-probe needs one of "
              + MemoryProbe.Side.allCases.map(\.rawValue).joined(separator: ", "))
        }
        options.memoryProbe = side
      case "--only":
        guard let value = remaining.popFirst() else {
          throw UsageError(message: "--only needs a comma-separated list of workloads")
        }
        let names = Set(value.split(separator: ",").map { $0.uppercased() })
        let unknown = names.subtracting(Workload.allNames)
        guard unknown.isEmpty else {
          throw UsageError(
            message: "unknown workload \(unknown.sorted().joined(separator: ", ")) in --only; "
              + "known: \(Workload.allNames.sorted().joined(separator: ", "))")
        }
        options.workloads = names
      default:
        throw UsageError(message: "unknown option '\(argument)'")
      }
    }
    return options
  }
}

/// A command line that cannot be run.
struct UsageError: Error {
  let message: String
}
