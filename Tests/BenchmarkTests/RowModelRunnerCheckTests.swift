import Testing

@testable import store_bench

@Suite("store-bench V2 checks")
@MainActor
struct RowModelRunnerCheckTests {
  @Test("V2's rows pass their checks, and a cancelled row fails them")
  func cancelledRowFails() {
    let runner = RowModelRunner(rows: 10)
    runner.perform(1_000)
    #expect(runner.verify(operations: 1_000).isEmpty)
    runner.tokens[3].cancel()
    runner.perform(1_000)
    #expect(
      runner.verify(operations: 2_000).contains { $0.contains("expected 20 notifications") })
  }

  @Test("V2's rows read the favourites: every seventh todo is starred")
  func rowsReadTheFavourites() {
    var starred: [Int] = []
    let runner = RowModelRunner(rows: 15)
    let tokens = (0..<15).map { id in
      runner.store.subscribe(TodoRowViewModel.self, to: \.todos, id: id) { row in
        if row?.isFavourite == true { starred.append(id) }
      }
    }
    #expect(starred == [0, 7, 14])
    _ = tokens
  }
}
