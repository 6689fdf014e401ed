import SideEffects
import Testing

extension Store {
  /// Returns once no effect of this store is running or queued: the wait a test makes on a plain
  /// `Store` (or an app's store) before it checks the state.
  ///
  /// ```swift
  /// let app = Store(initialState: AppState(), dependencies: .test())
  /// app.launch(LoadTodos())
  /// await app.settled()
  /// #expect(app.state.todos.count == 3)
  /// ```
  ///
  /// It fails as a ``TestStore`` does, at the caller's line, with the same report of what is
  /// still running:
  /// - at once, when every running effect is blocked on a ``TestClock`` found in the store's
  ///   dependencies (asleep on it, queued behind or awaiting such an effect): only advancing the
  ///   clock can make progress;
  /// - after `timeLimit` of real time without progress (no updater, no effect starting, getting
  ///   its turn, finishing or falling asleep); after five seconds (or a quarter of a shorter
  ///   limit) without progress it records a warning with the same report.
  ///
  /// The effects are left running when it fails.
  ///
  /// - Parameters:
  ///   - timeLimit: The real time to wait without progress before failing; four minutes by
  ///     default, a backstop that a passing test never reaches.
  ///   - sourceLocation: Where the wait is made, for the failure; the caller's line by default.
  public func settled(
    timeLimit: Duration = .seconds(240), sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    guard runningEffectCount > 0 else { return }
    let clock = TestStore<S, Dependencies>.findClock(in: dependencies, depth: 3)
    clock?.noteDriver()
    let progress = EffectProgress(store: self, clock: clock)
    let key = clock?.attach(
      sleepersChanged: { [weak progress] in
        Task { @MainActor [weak progress] in progress?.wake() }
      }, settle: nil)
    defer { if let key { clock?.detach(key) } }
    while runningEffectCount > 0 {
      if let blocked = progress.blockedEffects() {
        Issue.record(
          Comment(rawValue: progress.cannotProgress("settled()", blocked)),
          sourceLocation: sourceLocation)
        return
      }
      let moved = await progress.waitForActivity(
        within: timeLimit,
        report: {
          progress.slowWait("settled()", limit: timeLimit, limitName: "timeLimit", sends: nil)
        }, at: sourceLocation)
      guard moved else {
        Issue.record(
          Comment(
            rawValue: progress.timedOut(
              "settled()", limit: timeLimit, limitName: "timeLimit", sends: nil)),
          sourceLocation: sourceLocation)
        return
      }
    }
  }
}
