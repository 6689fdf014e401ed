import SideEffects
import Synchronization
import Testing

/// Watches the effects of one store for progress: the one notion of "blocked" that a test store's
/// `receive`, `finish` and its clock's `advance`, and `Store.settled()`, all share.
///
/// An effect is **blocked** when only the ``TestClock`` moving can let it go on: it is asleep on
/// the clock, queued (`CancellationPolicy.enqueue`) behind an effect that is blocked, or awaits
/// an effect it dispatched that is blocked. Everything that can change that wakes a waiter: an
/// updater applied, an effect starting (queued or awaited), getting its turn or ending, and a
/// task falling asleep on the clock.
@MainActor
final class EffectProgress<S: State, Dependencies: Sendable> {
  let store: Store<S, Dependencies>
  /// The clock the effects sleep on, if known.
  var clock: TestClock?
  private var waiters: [UInt64: CheckedContinuation<Bool, Never>] = [:]
  private var nextWaiterID: UInt64 = 0
  private var tokens: [Subscription] = []
  /// Called on each change, before the waiters resume.
  var onChange: (() -> Void)?

  /// How long a wait with the time limit `limit` goes without progress before it says what is
  /// still running (once per wait), well before it fails: five seconds, or a quarter of a
  /// shorter limit.
  static func reportDelay(within limit: Duration) -> Duration {
    min(.seconds(5), limit / 4)
  }

  init(store: Store<S, Dependencies>, clock: TestClock?) {
    self.store = store
    self.clock = clock
    tokens.append(store.observeUpdates { [weak self] _ in self?.wake() })
    tokens.append(store.observeEffectChanges { [weak self] in self?.wake() })
  }

  /// Resumes every waiter: something changed.
  func wake() {
    onChange?()
    let waiting = waiters
    waiters.removeAll()
    for waiter in waiting.values { waiter.resume(returning: true) }
  }

  /// Suspends until something changes (an updater, an effect's start, turn or end, a task falling
  /// asleep on the clock); returns `false` when `limit` of real time passes first.
  ///
  /// After ``reportDelay(within:)`` without a change, `report` is recorded as a warning, once: a
  /// slow wait says what it waits for long before it fails.
  func waitForActivity(
    within limit: Duration, report: @escaping @MainActor () -> String,
    at location: SourceLocation
  ) async -> Bool {
    nextWaiterID &+= 1
    let id = nextWaiterID
    let timer = Task { [weak self] in
      let first = Self.reportDelay(within: limit)
      guard (try? await Task.sleep(for: first)) != nil else { return }
      if first < limit, self?.waiters[id] != nil {
        Issue.record(
          Comment(rawValue: report()), severity: .warning, sourceLocation: location)
        guard (try? await Task.sleep(for: limit - first)) != nil else { return }
      }
      self?.waiters.removeValue(forKey: id)?.resume(returning: false)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { waiters[id] = $0 }
  }

  /// When every running effect is blocked (see ``EffectProgress``), one line per effect that no
  /// other effect awaits, saying what it waits for; `nil` when some effect may still progress
  /// on its own, or none runs.
  ///
  /// - Parameters:
  ///   - ownTasksOnly: Whether an effect is asleep only when its own task sleeps (to fail a wait
  ///     at once, nothing may be left that could progress), or when any of its tasks does (to
  ///     let the clock move).
  ///   - sends: Where each effect was sent from, by run token, when known.
  /// - Complexity: O(r log r + s) for r running effects and s sleepers.
  func blockedEffects(ownTasksOnly: Bool = true, sends: [UInt64: String]? = nil) -> [String]? {
    guard let clock else { return nil }
    let running = store.runningEffects
    let asleep = clock.sleepingRuns(in: store.effectRunsID, ownTasksOnly: ownTasksOnly)
    guard !running.isEmpty, !asleep.isEmpty else { return nil }
    let graph = WaitGraph(running: running, asleep: asleep)
    guard running.allSatisfy({ graph.isBlocked($0.token) }) else { return nil }
    return graph.roots.map { root in
      let origin =
        sends.map { sends in
          sends[root.token].map { " (sent at \($0))" } ?? " (not sent by the test store)"
        } ?? ""
      return "\(root.name)\(origin) " + graph.explain(root.token) + "."
    }
  }

  /// The failure of `label` when every running effect is blocked.
  func cannotProgress(_ label: String, _ blocked: [String]) -> String {
    let now = clock.map { $0.now.offsetDescription } ?? "+0 ms"
    return
      ([
        "\(label) cannot make progress: every running effect waits for the TestClock, which is "
          + "at \(now)."
      ] + blocked.map { "  " + $0 }).joined(separator: "\n")
  }

  /// The warning of a wait on behalf of `label` that has gone a while without progress.
  func slowWait(
    _ label: String, limit: Duration, limitName: String, sends: [UInt64: String]?
  ) -> String {
    stillRunning(
      headline: "\(label) has waited \(Self.reportDelay(within: limit)) of real time without "
        + "progress, and fails after \(limit) (`\(limitName)`). Still running:",
      sends: sends, limitName: limitName)
  }

  /// The failure of a wait on behalf of `label` that went `limit` without progress.
  func timedOut(
    _ label: String, limit: Duration, limitName: String, sends: [UInt64: String]?
  ) -> String {
    let test = Test.current.map { "test \"\($0.displayName ?? $0.name)\"" } ?? "the test"
    return stillRunning(
      headline: "In \(test), \(label) waited \(limit) of real time without progress (no "
        + "updater arriving, no effect starting, finishing or falling asleep), and gave up. "
        + "Still running:",
      sends: sends, limitName: limitName)
  }

  /// What is still running, one line per effect, and advice for those the clock cannot help.
  ///
  /// - Parameters:
  ///   - headline: The report's first line.
  ///   - limitName: How the reader raises the limit (`store.timeout`), for effects that may only
  ///     need longer; the advice is left out when every effect waits on the clock.
  ///   - sends: Where each effect was sent from, by run token; `nil` when nothing is known of
  ///     where effects came from (a plain store).
  func stillRunning(headline: String, sends: [UInt64: String]?, limitName: String) -> String {
    let running = store.runningEffects
    let asleep = clock?.sleepingRuns(in: store.effectRunsID, ownTasksOnly: false) ?? [:]
    let graph = WaitGraph(running: running, asleep: asleep)
    var working: [String] = []
    let lines = running.map { effect in
      let origin =
        sends.map { sends in
          sends[effect.token].map { " (sent at \($0))" } ?? " (not sent by the test store)"
        } ?? ""
      let state: String
      if let deadline = asleep[effect.token] {
        state = "asleep on the TestClock until \(deadline.offsetDescription)"
      } else if !effect.queuedBehind.isEmpty {
        state = "queued behind an effect with the same identifier"
      } else if !effect.awaits.isEmpty {
        state = "awaiting an effect it dispatched"
      } else if clock == nil {
        state = "running (this store knows no TestClock)"
      } else {
        state = "running, not asleep on the TestClock"
      }
      if !graph.isBlocked(effect.token) { working.append(effect.name) }
      return "  \(effect.name)\(origin): \(state)"
    }
    var report = [headline] + lines
    if running.isEmpty {
      report.append("  (no effect runs: an updater was expected from elsewhere)")
    } else if working.isEmpty {
      report.append("Every effect waits for the TestClock: advance it.")
    } else {
      let names = working.joined(separator: ", ")
      report.append(
        "\(names) may only need longer (raise `\(limitName)`), or waits for something that "
          + "never comes (a fake that never answers, a real clock).")
    }
    return report.joined(separator: "\n")
  }
}

/// Which running effects wait on what: the clock (asleep), effects they await, or effects ahead
/// of them in an `CancellationPolicy.enqueue` queue.
struct WaitGraph {
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
