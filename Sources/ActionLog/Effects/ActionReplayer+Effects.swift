import Foundation
import StateStore

extension ActionReplayer {
  /// Replays a recorded session on a live `store`, its side effects included: the updaters that
  /// no effect dispatched are dispatched again, the effects that the session started are
  /// started again, and each effect gets the values it recorded instead of calling its
  /// dependencies, so the session runs with no network.
  ///
  /// ```swift
  /// let registry = ActionLogRegistry<TodoState>().register(AddTodo.self)
  ///   .registerEffect(SearchTodos.self)
  /// let store = Store<TodoState, SearchClient>(initialState: TodoState(), dependencies: .offline)
  /// let state = try await ActionReplayer(registry: registry).replayRunningEffects(log, on: store)
  /// ```
  ///
  /// The log must have been recorded with its effects (diff mode, or `recordsEffects`), and
  /// every effect it started from outside an effect must be registered with
  /// ``ActionLogRegistry/registerEffect(_:name:)``; nested effects are started by their
  /// parents. The updaters are applied in the recorded order: before each updater it
  /// dispatches, and before each effect it starts, the replay waits until the effects have
  /// dispatched everything they had dispatched by then when recorded. Start from the state
  /// the session started from (its first checkpoint, ``recordedInitialState(_:)``).
  ///
  /// The effects must reach the world only through `SideEffectContext.recorded(_:_:)`: an
  /// effect that waits for something else (a clock only a test advances) keeps the replay
  /// waiting, as it would keep the app; cancel the replaying task to stop it.
  ///
  /// - Returns: The store's state at the end, once every effect has ended.
  /// - Throws: ``ActionLogError`` for a line that cannot be read; ``EffectReplayError`` when
  ///   an effect cannot be started again, asks for a value that was not recorded, leaves
  ///   recorded values unasked for, or when the effects end without dispatching the updaters
  ///   they dispatched when recorded; whatever else an effect throws.
  /// - Complexity: O(size of the log), plus the work of the updaters and the effects.
  @MainActor
  public func replayRunningEffects<D: Sendable>(_ data: Data, on store: Store<S, D>)
    async throws -> S
  {
    var reader = try LogReader(
      data: data, registry: registry, acceptsTornLastLine: options.tornLastLine == .skip,
      readsEffects: true)
    var events: [LogReader<S>.Event] = []
    var effectLines: [(EffectLine, line: Int)] = []
    while let event = try reader.next() {
      if case .effect(let effect, let line) = event { effectLines.append((effect, line)) }
      events.append(event)
    }
    let feed = RecordedEffects(try EffectLine.gather(effectLines))
    let run = EffectsReplayRun(feed: feed)
    let previousLog = store.effectLog
    let previousHandler = store.onUnhandledError
    feed.onChange = { [weak run] in run?.signal() }
    feed.replay(into: store)
    store.onUnhandledError = { [weak run] error, _ in run?.fail(error) }
    let token = store.observeUpdates { [weak run] _ in run?.noteApplied() }
    defer {
      token.cancel()
      store.onUnhandledError = previousHandler
      store.attachEffectLog(previousLog)
    }
    var expected = 0
    var lastEntry = 0
    for event in events {
      switch event {
      case .checkpoint:
        continue
      case .entry(let entry):
        if entry.effect == nil {
          try await run.wait(untilApplied: expected, before: lastEntry)
          store.dispatch(any: entry.updater)
        }
        expected += 1
        lastEntry = entry.sequence
      case .effect(.start(let effect), _) where effect.parent == nil:
        try await run.wait(untilApplied: expected, before: lastEntry)
        store.dispatch(any: try restart(effect))
      case .effect:
        continue
      }
    }
    try await run.wait(untilApplied: expected, before: lastEntry)
    try await run.waitForEffects()
    if let unreplayed = feed.unreplayedValues.first { throw unreplayed }
    return store.state
  }

  /// The effect `recorded` started, decoded from its payload.
  private func restart(_ recorded: RecordedEffect) throws(EffectReplayError)
    -> any ExecutableDispatchable
  {
    func failure(_ reason: String) -> EffectReplayError {
      EffectReplayError(
        effect: "\(recorded.type), effect \(recorded.number)", entry: recorded.afterEntry,
        label: "", problem: .cannotStart(reason: reason))
    }
    guard let codec = registry.effectCodec(named: recorded.type) else {
      throw failure("its type is not registered (registerEffect(_:name:))")
    }
    guard let payload = recorded.payload else {
      throw failure("the log has no encoding of it (record it with its type registered)")
    }
    do {
      return try codec.decode(Data(payload.text().utf8))
    } catch {
      throw failure("its encoding does not decode: \(LineFailure.summary(of: error))")
    }
  }
}

/// What a replay with effects waits on: the updaters applied, the effects running, the errors
/// they threw.
@MainActor
private final class EffectsReplayRun {
  private let feed: RecordedEffects
  private var applied = 0
  private var errors: [any Error] = []
  private var waiter: CheckedContinuation<Void, Never>?

  init(feed: RecordedEffects) {
    self.feed = feed
  }

  func noteApplied() {
    applied += 1
    signal()
  }

  func fail(_ error: any Error) {
    errors.append(error)
    signal()
  }

  func signal() {
    waiter.take()?.resume()
  }

  /// Returns once `count` updaters have been applied.
  ///
  /// - Throws: An effect's error, or ``EffectReplayError`` when no effect runs and fewer have
  ///   been applied.
  func wait(untilApplied count: Int, before entry: Int) async throws {
    while true {
      if let error = errors.first { throw error }
      if applied >= count { return }
      guard feed.runningCount > 0 else {
        throw EffectReplayError(
          effect: "the replay's effects", entry: entry, label: "",
          problem: .updatersMissing(count: count - applied))
      }
      await next()
    }
  }

  /// Returns once no effect runs.
  func waitForEffects() async throws {
    while feed.runningCount > 0 {
      if let error = errors.first { throw error }
      await next()
    }
    if let error = errors.first { throw error }
  }

  private func next() async {
    await withCheckedContinuation { waiter = $0 }
  }
}
