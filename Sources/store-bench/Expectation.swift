/// Counts what subscribers and listeners receive, in the store and in the floors alike.
final class Sink {
  var count = 0
  var checksum = 0

  /// Records one delivered todo; the checksum depends on which todo and its `done` flag.
  func receive(_ todo: Todo?) {
    count += 1
    if let todo { checksum &+= todo.id &* 2 &+ (todo.done ? 1 : 0) }
  }

  /// Records one `(old, new)` pair; the checksum depends on both counters and todo counts.
  func receive(oldCounter: Int, newCounter: Int, todoCount: Int) {
    count += 1
    checksum &+= newCounter &- oldCounter &+ todoCount
  }

  func reset() {
    count = 0
    checksum = 0
  }
}

/// What toggling todo `i % todoCount` for `i` in `0..<operations` must produce, worked out in
/// closed form so that no runner checks itself against its own code.
struct ToggleExpectation {
  let todoCount: Int
  let operations: Int

  /// How often todo `index` was toggled.
  func toggles(of index: Int) -> Int {
    operations / todoCount + (index < operations % todoCount ? 1 : 0)
  }

  /// Whether todo `index` ends up done.
  func isDone(_ index: Int) -> Bool {
    toggles(of: index) % 2 == 1
  }

  /// How many of `subscribers` watch todo `index` when subscriber `k` watches `k % todoCount`.
  func watchers(of index: Int, subscribers: Int) -> Int {
    subscribers / todoCount + (index < subscribers % todoCount ? 1 : 0)
  }

  /// How many notifications `subscribers` row subscribers must receive in all.
  func notifications(subscribers: Int) -> Int {
    (0..<todoCount).reduce(0) { $0 + watchers(of: $1, subscribers: subscribers) * toggles(of: $1) }
  }

  /// The ``Sink`` checksum those notifications must add up to.
  func checksum(subscribers: Int) -> Int {
    (0..<todoCount).reduce(0) { sum, index in
      let toggles = toggles(of: index)
      // The n-th toggle leaves the todo done when n is odd.
      let perWatcher = toggles &* index &* 2 &+ (toggles + 1) / 2
      return sum &+ watchers(of: index, subscribers: subscribers) &* perWatcher
    }
  }

  /// Messages for every todo whose `done` flag differs from the expected one.
  func check(doneFlags: [Bool]) -> [String] {
    guard doneFlags.count == todoCount else {
      return ["expected \(todoCount) todos, found \(doneFlags.count)"]
    }
    let wrong = doneFlags.indices.filter { doneFlags[$0] != isDone($0) }
    guard let first = wrong.first else { return [] }
    return ["\(wrong.count) todos have the wrong done flag, the first is todo \(first)"]
  }

  /// Messages for a sink whose count or checksum differs from the expected one.
  func check(_ sink: Sink, subscribers: Int) -> [String] {
    var failures: [String] = []
    let expected = notifications(subscribers: subscribers)
    if sink.count != expected {
      failures.append("expected \(expected) notifications, counted \(sink.count)")
    }
    let sum = checksum(subscribers: subscribers)
    if sink.checksum != sum {
      failures.append("expected notification checksum \(sum), got \(sink.checksum)")
    }
    return failures
  }
}
