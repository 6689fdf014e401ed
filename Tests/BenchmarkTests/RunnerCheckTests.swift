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
  func runnersPassTheirChecks() {
    let runners: [any Runner] = [
      CounterStoreRunner(), CounterFloor(), ToggleStoreRunner(subscribers: 1_200),
      ToggleStoreRunner(listens: true), ToggleFloor(), NaiveFloor(subscribers: 1_200),
      IndexedFloor(subscribers: 1_200), CopyFloor(), ConnectedRowsRunner(views: 1_200),
      DoneCountRunner(observes: true), DoneCountRunner(observes: false),
    ]
    for runner in runners {
      runner.perform(700)
      runner.perform(600)
      #expect(runner.verify(operations: 1_300).isEmpty, "\(type(of: runner))")
    }
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
