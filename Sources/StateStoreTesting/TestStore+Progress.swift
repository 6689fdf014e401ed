import SideEffects
import Synchronization
import Testing

/// How a test store tells a wait that can end from one that cannot: the clock's sleepers, the
/// effects' waits for each other, and a real-time backstop for everything else.
extension TestStore {
  // MARK: - Waiting

  /// Waits for something to happen on behalf of `label` (an updater, an effect starting, getting
  /// its turn, finishing or falling asleep); returns `false`, having recorded why at `location`,
  /// when nothing can happen without the clock moving, or nothing did within ``timeout``.
  func awaitProgress(_ label: String, at location: SourceLocation) async -> Bool {
    if let blocked = progress.blockedEffects(sends: sentEffects()) {
      Issue.record(
        Comment(rawValue: progress.cannotProgress(label, blocked)), sourceLocation: location)
      return false
    }
    guard await waitForActivity(label, at: location) else {
      Issue.record(Comment(rawValue: timedOut(label)), sourceLocation: location)
      return false
    }
    return true
  }

  /// Suspends until something changes; `false` after ``timeout`` without a change.
  ///
  /// A slow wait
  /// says what is still running after a few seconds, as a warning.
  func waitForActivity(_ label: String, at location: SourceLocation) async -> Bool {
    await progress.waitForActivity(
      within: timeout,
      report: { [weak self] in
        guard let self else { return "" }
        return self.progress.slowWait(
          label, limit: self.timeout, limitName: "store.timeout", sends: self.sentEffects())
      }, at: location)
  }

  /// Cancels every running effect after a failed wait, and waits for them to end (each within
  /// ``timeout``), so that the end of the test does not report them a second time.
  func abandonRunningEffects() async {
    store.cancelAllEffects()
    while store.runningEffectCount > 0 {
      guard await waitForActivity("cancelling the running effects", at: creation) else { return }
    }
  }

  // MARK: - Working with the clock

  /// Starts working with ``clock``, ending the work with the previous one.
  func attachClock() {
    clockLink.detach()
    progress.clock = clock
    guard let clock else { return }
    let key = clock.attach(
      sleepersChanged: { [weak self] in
        Task { @MainActor [weak self] in self?.progress.wake() }
      },
      settle: { [weak self] in await self?.settleForClock() })
    clockLink.set(clock, key: key)
  }

  /// Returns once every running effect is blocked (see ``EffectProgress``) or has finished:
  /// what the clock waits for before moving, so that it never runs ahead of an effect about to
  /// sleep.
  ///
  /// An effect counts as asleep here when any of its tasks sleeps on the clock, so that an
  /// effect racing a timeout (a sleep in a child task) against other work lets the clock move.
  func settleForClock() async {
    let label = "advancing the TestClock (waiting for the effects to sleep)"
    while store.runningEffectCount > 0,
      progress.blockedEffects(ownTasksOnly: false) == nil
    {
      guard await waitForActivity(label, at: creation) else {
        Issue.record(Comment(rawValue: timedOut(label)), sourceLocation: creation)
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

  /// The failure of `label` when the real-time backstop ran out.
  func timedOut(_ label: String) -> String {
    progress.timedOut(label, limit: timeout, limitName: "store.timeout", sends: sentEffects())
  }

  /// Where each effect that `send` started and that is still running was sent, by run token.
  func sentEffects() -> [UInt64: String] {
    var sends: [UInt64: String] = [:]
    for send in runningSends.values {
      guard let token = send.token() else { continue }
      sends[token] = "\(send.location.fileID):\(send.location.line)"
    }
    return sends
  }
}

extension TestStore {
  // MARK: - The test awaiting an effect

  /// Hears the awaits of effect handles, and keeps those of the task that drives the ``clock``
  /// (the test) in ``awaitedRuns``.
  func watchAwaits() -> Subscription {
    EffectAwaits.watch { [clockLink, awaitedRuns, weak self] event in
      if event.begins {
        guard clockLink.clock?.isDriver(event.awaiter) == true else { return }
        awaitedRuns.insert(event.run, by: event.awaiter)
      } else {
        guard awaitedRuns.remove(event.run, by: event.awaiter) else { return }
        // Recorded here, on the test's own task, as its await ends: the issue belongs to the
        // test (and to a `withKnownIssue` around the await).
        if let (report, location) = awaitedRuns.takeReport() {
          Issue.record(Comment(rawValue: report), sourceLocation: location)
        }
      }
      Task { @MainActor [weak self] in self?.progress.wake() }
    }
  }

  /// Fails an await of the test on an effect that cannot end.
  ///
  /// Every running effect is blocked on the ``clock``, which only the test, waiting, advances.
  /// The effects are cancelled, which ends the await.
  ///
  /// - Complexity: O(r log r + s) for r running effects and s sleepers, when the test awaits an
  ///   effect; O(1) otherwise.
  func checkAwaitedEffects() {
    let awaited = awaitedRuns.current
    guard !awaited.isEmpty else {
      reportedAwaitStall = false
      return
    }
    guard !reportedAwaitStall else { return }
    let targets = store.runningEffects.filter { awaited.contains($0.run) }
    guard !targets.isEmpty, let blocked = progress.blockedEffects(sends: sentEffects()) else {
      return
    }
    reportedAwaitStall = true
    let names = targets.map(\.name).joined(separator: ", ")
    let sent = runningSends.values.first { send in
      targets.contains { $0.token == send.token() }
    }
    let report =
      progress.cannotProgress("The test's await of \(names)", blocked)
      + "\nOnly the test advances the clock, and it is waiting for the effect: advance the "
      + "clock first (`await clock.advance(by:)`), or assert with `store.receive(...)` and "
      + "`store.finish()`, which wait for the effects to sleep. The running effects were "
      + "cancelled, which ends the await."
    // The test's await ends with the cancellation, and the issue is recorded then, on its task.
    awaitedRuns.setReport(report, at: sent?.location ?? Test.current?.sourceLocation ?? creation)
    store.cancelAllEffects()
  }
}

/// The effect runs that the test's own task awaits, changed on any thread.
final class AwaitedRuns: Sendable {
  private struct Await: Hashable {
    let run: ObjectIdentifier
    let awaiter: Int
  }

  private struct Inner {
    /// How many times each task awaits each run now.
    var awaits: [Await: Int] = [:]
    /// The issue to record when the await that cannot end has ended.
    var report: (text: String, location: SourceLocation)?
  }

  private let inner = _SpinLocked(Inner())

  /// The runs awaited now.
  var current: Set<ObjectIdentifier> { inner.withLock { Set($0.awaits.keys.map(\.run)) } }

  /// Notes one more await of `run` by the task `awaiter`.
  func insert(_ run: ObjectIdentifier, by awaiter: Int) {
    inner.withLock { $0.awaits[Await(run: run, awaiter: awaiter), default: 0] += 1 }
  }

  /// Notes the end of an await of `run` by the task `awaiter`; `false` when none was noted.
  func remove(_ run: ObjectIdentifier, by awaiter: Int) -> Bool {
    let key = Await(run: run, awaiter: awaiter)
    return inner.withLock { inner in
      guard let count = inner.awaits[key] else { return false }
      inner.awaits[key] = count > 1 ? count - 1 : nil
      return true
    }
  }

  /// Keeps the issue of an await that cannot end, to record when it has ended.
  func setReport(_ text: String, at location: SourceLocation) {
    inner.withLock { $0.report = (text, location) }
  }

  /// The issue kept by ``setReport(_:at:)``, once.
  func takeReport() -> (String, SourceLocation)? {
    inner.withLock { $0.report.take() }.map { ($0.text, $0.location) }
  }
}

/// The clock a test store works with, detachable from `deinit` on any thread.
final class ClockLink: Sendable {
  /// Not a `Mutex`: effects' threads read it while they await, and ThreadSanitizer does not
  /// see a contended `Mutex` handed over in the kernel on Linux.
  private let link = _SpinLocked<(clock: TestClock, key: UInt64)?>(nil)

  /// Remembers that the store works with `clock` under `key`.
  func set(_ clock: TestClock, key: UInt64) {
    link.withLock { $0 = (clock, key) }
  }

  /// The clock the store works with, if any.
  var clock: TestClock? { link.withLock { $0?.clock } }

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
