import SideEffects
import Synchronization
import Testing

/// How a test store tells a wait that can end from one that cannot: the clock's sleepers, the
/// effects' waits for each other, and a real-time backstop for everything else.
extension TestStore {
  // MARK: - Waiting

  /// Suspends until an updater arrives, an effect finishes or a task sleeps on the clock;
  /// returns `false` when `limit` of real time passes first.
  func waitForActivity(within limit: Duration) async -> Bool {
    nextWaiterID &+= 1
    let id = nextWaiterID
    let timer = Task { [weak self] in
      try? await Task.sleep(for: limit)
      self?.waiters.removeValue(forKey: id)?.resume(returning: false)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { waiters[id] = $0 }
  }

  /// Waits for something to happen on behalf of `label` (an updater, an effect finishing or
  /// falling asleep); returns `false`, having recorded why at `location`, when nothing can
  /// happen without the clock moving, or nothing did within ``timeout``.
  func awaitProgress(_ label: String, at location: SourceLocation) async -> Bool {
    if let blocked = blockedEffects() {
      Issue.record(Comment(rawValue: cannotProgress(label, blocked)), sourceLocation: location)
      return false
    }
    guard await waitForActivity(within: timeout) else {
      Issue.record(Comment(rawValue: timedOut(label)), sourceLocation: location)
      return false
    }
    return true
  }

  /// Cancels every running effect after a failed wait, and waits for them to end (each within
  /// ``timeout``), so that the end of the test does not report them a second time.
  func abandonRunningEffects() async {
    store.cancelAllEffects()
    while store.runningEffectCount > 0 {
      guard await waitForActivity(within: timeout) else { return }
    }
  }

  // MARK: - Working with the clock

  /// Starts working with ``clock``, ending the work with the previous one.
  func attachClock() {
    clockLink.detach()
    guard let clock else { return }
    let key = clock.attach(
      sleepersChanged: { [weak self] in
        Task { @MainActor [weak self] in self?.wake() }
      },
      settle: { [weak self] in await self?.settleForClock() })
    clockLink.set(clock, key: key)
  }

  /// Returns once every running effect waits on the clock or has finished: what the clock waits
  /// for before moving, so that it never runs ahead of an effect about to sleep.
  ///
  /// An effect counts as asleep here when any of its tasks sleeps on the clock, so that an
  /// effect racing a timeout (a sleep in a child task) against other work lets the clock move.
  func settleForClock() async {
    while store.runningEffectCount > 0, blockedEffects(ownTasksOnly: false) == nil {
      guard await waitForActivity(within: timeout) else {
        Issue.record(
          Comment(rawValue: timedOut("advancing the TestClock (waiting for the effects to sleep)")),
          sourceLocation: creation)
        return
      }
    }
  }

  /// The first ``TestClock`` in `value`, looking `depth` levels into stored properties.
  ///
  /// - Complexity: O(stored values within `depth` levels).
  static func findClock(in value: Any, depth: Int) -> TestClock? {
    if let clock = value as? TestClock { return clock }
    guard depth > 0 else { return nil }
    for child in Mirror(reflecting: value).children {
      if let clock = findClock(in: child.value, depth: depth - 1) { return clock }
    }
    return nil
  }

  // MARK: - Explaining

  /// When every running effect waits on the clock (asleep on it, or waiting for effects that
  /// are), one line per effect that no other effect awaits, saying what it waits for; `nil`
  /// when some effect may still progress on its own.
  ///
  /// - Parameter ownTasksOnly: Whether an effect is asleep only when its own task sleeps (to
  ///   fail a wait at once, nothing may be left that could progress), or when any of its tasks
  ///   does (to let the clock move).
  /// - Complexity: O(r log r + s) for r running effects and s sleepers.
  func blockedEffects(ownTasksOnly: Bool = true) -> [String]? {
    guard let clock else { return nil }
    let running = store.runningEffects
    let asleep = clock.sleepingRuns(in: store.effectRunsID, ownTasksOnly: ownTasksOnly)
    guard !running.isEmpty, !asleep.isEmpty else { return nil }
    let graph = WaitGraph(running: running, asleep: asleep)
    guard running.allSatisfy({ graph.isBlocked($0.token) }) else { return nil }
    let sends = sentEffects()
    return graph.roots.map { root in
      let origin = sends[root.token].map { "sent at \($0)" } ?? "not sent by the test store"
      return "\(root.name) (\(origin)) " + graph.explain(root.token) + "."
    }
  }

  /// The failure of `label` when every running effect waits on the clock.
  func cannotProgress(_ label: String, _ blocked: [String]) -> String {
    let now = clock.map { $0.now.offsetDescription } ?? "+0 ms"
    return
      ([
        "\(label) cannot make progress: every running effect waits for the TestClock, which is "
          + "at \(now)."
      ] + blocked.map { "  " + $0 }).joined(separator: "\n")
  }

  /// The failure of `label` when the real-time backstop ran out.
  func timedOut(_ label: String) -> String {
    let test = Test.current.map { "test \"\($0.displayName ?? $0.name)\"" } ?? "the test"
    let sends = sentEffects()
    let asleep = clock?.sleepingRuns(in: store.effectRunsID, ownTasksOnly: false) ?? [:]
    let lines = store.runningEffects.map { effect in
      let origin = sends[effect.token].map { "sent at \($0)" } ?? "not sent by the test store"
      let state =
        if let deadline = asleep[effect.token] {
          "asleep on the TestClock until \(deadline.offsetDescription)"
        } else if !effect.queuedBehind.isEmpty {
          "queued behind an effect with the same identifier"
        } else if !effect.awaits.isEmpty {
          "awaiting an effect it dispatched"
        } else if clock == nil {
          "running (this store knows no TestClock)"
        } else {
          "running, not asleep on the TestClock"
        }
      return "  \(effect.name) (\(origin)): \(state)"
    }
    return
      ([
        "In \(test), \(label) waited \(timeout) of real time without an updater arriving or "
          + "an effect finishing, and gave up. Still running:"
      ] + lines + ["Raise `store.timeout` if they only need longer."]).joined(separator: "\n")
  }

  /// Where each effect that `send` started and that is still running was sent, by run token.
  private func sentEffects() -> [UInt64: String] {
    var sends: [UInt64: String] = [:]
    for send in runningSends.values {
      guard let token = send.token() else { continue }
      sends[token] = "\(send.location.fileID):\(send.location.line)"
    }
    return sends
  }
}

/// Which running effects wait on what: the clock (asleep), effects they await, or effects ahead
/// of them in an ``CancellationPolicy/enqueue`` queue.
private struct WaitGraph {
  let effects: [UInt64: RunningEffect]
  let asleep: [UInt64: TestClock.Instant]
  /// The running effects that no running effect awaits, oldest first.
  let roots: [RunningEffect]

  init(running: [RunningEffect], asleep: [UInt64: TestClock.Instant]) {
    var effects: [UInt64: RunningEffect] = [:]
    for effect in running { effects[effect.token] = effect }
    self.effects = effects
    self.asleep = asleep
    let awaited = Set(running.flatMap(\.awaits))
    roots = running.filter { !awaited.contains($0.token) }
  }

  /// The running effects `token` waits for.
  private func waits(of token: UInt64) -> [UInt64] {
    guard let effect = effects[token] else { return [] }
    return (effect.awaits + effect.queuedBehind).filter { effects[$0] != nil }
  }

  /// Whether `token` can only progress when the clock moves.
  ///
  /// A cycle (an effect awaiting an effect queued behind itself) counts as blocked: it never
  /// ends either.
  func isBlocked(_ token: UInt64, visiting: Set<UInt64> = []) -> Bool {
    if asleep[token] != nil { return true }
    if visiting.contains(token) { return true }
    let waits = waits(of: token)
    let next = visiting.union([token])
    return !waits.isEmpty && waits.allSatisfy { isBlocked($0, visiting: next) }
  }

  /// What `token` waits for, as the end of a sentence starting with its name.
  func explain(_ token: UInt64, visiting: Set<UInt64> = []) -> String {
    if let deadline = asleep[token] {
      return "is asleep on the TestClock until \(deadline.offsetDescription): "
        + "advance the clock"
    }
    guard let effect = effects[token], !visiting.contains(token) else {
      return "waits for itself"
    }
    let next = visiting.union([token])
    if !effect.queuedBehind.isEmpty {
      let ahead = effect.queuedBehind.compactMap { effects[$0]?.name }.joined(separator: ", ")
      return "waits for its turn behind \(ahead) (cancellation policy .enqueue)"
    }
    let children = effect.awaits.compactMap { child in
      effects[child].map { "\($0.name), which " + explain(child, visiting: next) }
    }
    return "awaits " + children.joined(separator: "; and ")
  }
}

/// The clock a test store works with, detachable from `deinit` on any thread.
final class ClockLink: Sendable {
  private let link = Mutex<(clock: TestClock, key: UInt64)?>(nil)

  /// Remembers that the store works with `clock` under `key`.
  func set(_ clock: TestClock, key: UInt64) {
    link.withLock { $0 = (clock, key) }
  }

  /// Ends the work with the clock, if any.
  func detach() {
    let previous = link.withLock { link in
      defer { link = nil }
      return link
    }
    if let previous { previous.clock.detach(previous.key) }
  }
}

extension TestClock.Instant {
  /// The instant as an offset from the clock's start, as failures show it: `+300 ms`, `+2 s`.
  package var offsetDescription: String {
    let (seconds, attoseconds) = offset.components
    let perMillisecond: Int64 = 1_000_000_000_000_000
    let scaled = seconds.multipliedReportingOverflow(by: 1000)
    guard attoseconds % perMillisecond == 0, !scaled.overflow else { return "+\(offset)" }
    let milliseconds = scaled.partialValue.addingReportingOverflow(attoseconds / perMillisecond)
    guard !milliseconds.overflow else { return "+\(offset)" }
    if milliseconds.partialValue != 0, attoseconds == 0 { return "+\(seconds) s" }
    return "+\(milliseconds.partialValue) ms"
  }
}
