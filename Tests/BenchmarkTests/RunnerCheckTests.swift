import StateStore
import Testing

@testable import store_bench

/// The correctness checks must be able to fail, or a passing benchmark would prove nothing.
@Suite("store-bench correctness checks")
@MainActor
struct RunnerCheckTests {
  @Test("the closed-form expectation matches a direct count")
  func expectationMatchesDirectCount() {
    let operations = 2_345
    let subscribers = 1_500
    var done = [Bool](repeating: false, count: todoCount)
    var notifications = 0
    var checksum = 0
    for operation in 0..<operations {
      let index = operation % todoCount
      done[index].toggle()
      let watchers = (0..<subscribers).filter { $0 % todoCount == index }.count
      notifications += watchers
      checksum += watchers * (index * 2 + (done[index] ? 1 : 0))
    }
    let expectation = ToggleExpectation(todoCount: todoCount, operations: operations)
    #expect(expectation.notifications(subscribers: subscribers) == notifications)
    #expect(expectation.checksum(subscribers: subscribers) == checksum)
    #expect(expectation.check(doneFlags: done).isEmpty)
  }

  @Test("every runner passes its checks after a run that is not a whole cycle")
  func runnersPassTheirChecks() async {
    let runners: [any Runner] = [
      CounterStoreRunner(), CounterFloor(), ToggleStoreRunner(subscribers: 1_200),
      ToggleStoreRunner(listens: true), ToggleFloor(), NaiveFloor(subscribers: 1_200),
      IndexedFloor(subscribers: 1_200), CopyFloor(), ConnectedRowsRunner(views: 1_200),
      DoneCountRunner(observes: true), DoneCountRunner(observes: false),
      ToggleStoreRunner(todos: 1_500), ToggleFloor(todos: 1_500), AwaitedEffectRunner(),
      AwaitedTaskFloor(),
    ]
    for runner in runners {
      await runner.perform(700)
      await runner.perform(600)
      #expect(runner.verify(operations: 1_300).isEmpty, "\(type(of: runner))")
    }
  }

  @Test("E2's and SUB's runners pass their checks; each operation is a whole batch")
  func batchRunnersPassTheirChecks() async {
    let runners: [any Runner] = [
      LaunchedEffectsRunner(), LaunchedTasksFloor(), SubscribeCancelRunner(), BucketFloor(),
    ]
    for runner in runners {
      await runner.perform(1)
      await runner.perform(2)
      #expect(runner.verify(operations: 3).isEmpty, "\(type(of: runner))")
      #expect(runner.entriesPerOperation == 10_000)
    }
  }

  @Test("a store that still notified a cancelled subscriber fails SUB's check")
  func deliveryAfterCancellationFails() {
    let runner = SubscribeCancelRunner()
    runner.perform(2)
    runner.sink.receive(nil as Todo?)
    #expect(runner.verify(operations: 2).contains { $0.contains("first values only") })
    #expect(!runner.verify(operations: 3).isEmpty)
  }

  @Test("an effect that did not apply its updater fails E1's and E2's checks")
  func missingIncrementFails() async {
    let awaited = AwaitedEffectRunner()
    await awaited.perform(5)
    #expect(awaited.verify(operations: 5).isEmpty)
    #expect(awaited.verify(operations: 6).contains { $0.contains("expected counter 6") })
    let launched = LaunchedEffectsRunner()
    await launched.perform(1)
    #expect(launched.verify(operations: 2).contains { $0.contains("expected counter 20000") })
  }

  @Test("the ratio is the median of the per-repetition ratios, with their min and max")
  func perRepetitionRatios() {
    let measurement = Measurement(
      samples: [[10, 30, 12, 40, 20], [5, 10, 4, 10, 5]], failures: [])
    let ratios = measurement.ratios(0, over: 1)
    #expect(ratios.median == 3)
    #expect(ratios.min == 2)
    #expect(ratios.max == 4)
    // The ratio of the medians differs: 20 / 5 = 4.
    #expect(measurement.statistics[0].median / measurement.statistics[1].median == 4)
  }

  @Test("--only G1 selects both sizes, in any case")
  func growthFamilySelection() throws {
    let options = try Options.parse(["--only", "g1,w0"])
    let selected = Workload.all(logEntries: 0).filter {
      options.workloads.map($0.isSelected(by:)) ?? true
    }
    #expect(selected.map(\.name) == ["W0", "G1-10k", "G1-100k"])
  }

  @Test("P1's cause floor reads the cause at every dispatch, and a cause it finds fails its check")
  func causeFloorChecks() {
    let floor = CauseReadingToggleRunner()
    floor.perform(700)
    #expect(floor.verify(operations: 700).isEmpty)
    #expect(!floor.verify(operations: 701).isEmpty)
    DispatchCause.$current.withValue(DispatchCause("test")) { floor.perform(1) }
    #expect(floor.causes == 1)
    #expect(!floor.verify(operations: 701).isEmpty)
  }

  @Test("S5's comparison floor compares every operation, and unequal bytes fail its check")
  func comparisonFloorChecks() {
    let floor = SliceComparisonFloor()
    floor.perform(300)
    #expect(floor.verify(operations: 300).isEmpty)
    #expect(!floor.verify(operations: 301).isEmpty)
    // A slice that differs from its copy is counted, and fails the check.
    floor.mirror.f42.name = "changed"
    floor.perform(1)
    #expect(floor.differences == 1)
    #expect(!floor.verify(operations: 301).isEmpty)
  }

  @Test("a subscriber that misses notifications fails the store's check")
  func missedNotificationsFail() {
    let runner = ToggleStoreRunner(subscribers: 10)
    runner.tokens[3].cancel()
    runner.perform(1_000)
    let failures = runner.verify(operations: 1_000)
    #expect(failures.contains { $0.contains("expected 10 notifications, counted 9") })
  }

  @Test("a wrong state or a wrong checksum fails a floor's check")
  func wrongStateFails() {
    let floor = IndexedFloor(subscribers: 100)
    floor.perform(150)
    #expect(!floor.verify(operations: 149).isEmpty)
    floor.sink.checksum += 1
    #expect(floor.verify(operations: 150).contains { $0.contains("checksum") })
  }
}

@Suite("store-bench V1 and O1 checks")
@MainActor
struct ScreenRunnerCheckTests {
  @Test("the closed-form sum of done counts matches a direct count")
  func doneCountSumMatchesDirectCount() {
    for operations in [0, 1, 999, 1_000, 1_001, 1_999, 2_000, 2_001, 4_567] {
      var done = [Bool](repeating: false, count: todoCount)
      var sum = 0
      for operation in 0..<operations {
        done[operation % todoCount].toggle()
        sum += done.filter { $0 }.count
      }
      let expectation = ToggleExpectation(todoCount: todoCount, operations: operations)
      #expect(expectation.doneCountSum() == sum, "\(operations) operations")
    }
  }

  @Test("a row view that is disconnected fails V1's check")
  func disconnectedRowFails() {
    let runner = ConnectedRowsRunner(views: 10)
    runner.tokens[3].cancel()
    runner.perform(1_000)
    #expect(
      runner.verify(operations: 1_000).contains { $0.contains("expected 10 notifications") })
  }

  @Test("a missed read fails O1's check")
  func missedReadFails() {
    let runner = DoneCountRunner(observes: true)
    runner.perform(10)
    runner.sink.count -= 1
    #expect(!runner.verify(operations: 10).isEmpty)
  }
}
