import SideEffects
import StateStoreTesting
import Testing

/// Saves the favourites to a fake storage that takes 500 ms of the injected clock; saves queue
/// behind each other (`.enqueue`), as the trial's `SaveFavourites` did.
struct SaveFavourites: SideEffect {
  var cancellationID: CancellationID? { "favourites-file" }
  var cancellationPolicy: CancellationPolicy { .enqueue }

  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    try await context.dependencies.clock.sleep(for: .milliseconds(500))
    await context.dispatch(Append(entry: "saved"))
  }
}

/// A tap on a favourite star: awaits the save it dispatches, as the trial's `ToggleFavourite`.
struct ToggleFavourite: SideEffect {
  /// Yields this many times before dispatching the save, to vary the interleaving.
  var yields = 0

  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    for _ in 0..<yields { await Task.yield() }
    try await context.dispatch(SaveFavourites())
  }
}

/// A small seeded generator (SplitMix64), so that a failing interleaving can be run again.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

@MainActor
@Suite("The test clock never stalls", .timeLimit(.minutes(5)))
struct ClockStallTests {
  /// Runs the trial's case once and returns the issues it recorded.
  ///
  /// `taps` taps, each a toggle awaiting a queued save that sleeps on the clock, then one
  /// `advance` per save.
  func runTrialCase(taps: Int, yields: () -> Int) async -> [String] {
    let warnings = Collected<String>()
    let failures = await recordedIssues(intermittent: true, warnings: warnings) {
      let clock = TestClock()
      let store = makeTestStore(clock: clock)
      // A stall would wait this long; the run of a thousand cases then fails by its issues.
      store.timeout = .seconds(30)
      for _ in 0..<taps {
        await store.send(ToggleFavourite(yields: yields()))
        for _ in 0..<yields() { await Task.yield() }
      }
      var log: [String] = []
      for _ in 0..<taps {
        await clock.advance(by: .milliseconds(500))
        await store.receive(Append(entry: "saved")) {
          log.append("saved")
          $0.log = log
        }
      }
      await store.finish()
    }
    // A warning means a wait went five seconds without progress: a stall in the making.
    return warnings.all + failures
  }

  @Test("two taps then advance(by: 500 ms): the trial's case, a thousand seeded interleavings")
  func trialCaseNeverStalls() async {
    // A fixed seed: the same taps and yields each run; the failure names the round.
    let seed: UInt64 = 0x5EED_0023
    var generator = SeededGenerator(seed: seed)
    for round in 0..<1000 {
      let taps = Int.random(in: 2...3, using: &generator)
      var yields: [Int] = (0..<(2 * taps)).map { _ in Int.random(in: 0...3, using: &generator) }
      let issues = await runTrialCase(taps: taps) { yields.popLast() ?? 0 }
      #expect(issues.isEmpty, "seed \(seed), round \(round), \(taps) taps: \(issues)")
      if !issues.isEmpty { return }
    }
  }
}
