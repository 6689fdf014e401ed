import Foundation
import StateStore

/// Shrinks a recorded session that ends in a failure to the smallest sub-session that still
/// fails, and writes it as a test.
///
/// ```swift
/// let shrinker = SessionShrinker(registry: .app)
/// let check = try SessionCheck<AppState>.expect("/todos[id=3]/done", equals: .bool(true))
/// let shrunk = try shrinker.shrink(contentsOf: logURL, until: check)
/// print(shrunk.steps.count)        // 3 of 412 entries
/// print(shrunk.testSource())       // a Swift Testing test with an exhaustive TestStore
/// ```
///
/// How it shrinks, deterministically:
/// 1. The log's entries are grouped into steps: the updaters one side effect dispatched in a
///    row (the same `DispatchCause`, with no checkpoint between them, as a new recording run
///    writes one) stay together, since a test cannot send half of what an effect did. Every
///    other entry is a step of its own.
/// 2. Delta debugging (Zeller's *ddmin*) removes steps while the check still fails: halves,
///    then quarters and so on, and their complements, until no single step can go. The result
///    is 1-minimal: removing any one of its steps makes the failure go away.
/// 3. Each kept updater that is a ``ShrinkableUpdater`` is replaced by the first of its
///    smaller candidates that still fails, again and again; except the updaters of an effect
///    that the test starts again, which dispatches them as recorded.
///
/// Each check replays the steps kept from the state the log started from (its first
/// checkpoint), without side effects.
public struct SessionShrinker<S: State & Codable>: Sendable {
  /// The updater types the log may contain.
  public let registry: ActionLogRegistry<S>
  /// How many times a kept updater may be replaced by a smaller one, at most: a bound for
  /// candidates that do not get smaller.
  public var maximumPayloadShrinks = 64

  /// Creates a shrinker for logs of the updaters `registry` names.
  public init(registry: ActionLogRegistry<S>) {
    self.registry = registry
  }

  /// Shrinks the session recorded at `url`; see ``shrink(_:initialState:until:)``.
  ///
  /// - Complexity: As ``shrink(_:initialState:until:)``.
  public func shrink(
    contentsOf url: URL, initialState: S? = nil, until check: SessionCheck<S>
  ) throws(SessionShrinkError) -> ShrunkSession<S> {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw .unreadableLog(.fileError(path: url.path, reason: error.localizedDescription))
    }
    return try shrink(data, initialState: initialState, until: check)
  }

  /// Shrinks the session recorded in `log` to the smallest sub-session that still fails
  /// `check`.
  ///
  /// - Parameters:
  ///   - log: The log's bytes, header first.
  ///   - initialState: The state the session started from; by default the log's first
  ///     checkpoint, which a log recorded in diff mode always has.
  ///   - check: What fails.
  /// - Throws: ``SessionShrinkError``: the log does not read, has no initial state, or does
  ///   not fail.
  /// - Complexity: O(s × log n) replays of at most n entries for a failure that needs s of
  ///   the session's n steps (O(n²) replays at worst), each followed by one check.
  public func shrink(
    _ log: Data, initialState: S? = nil, until check: SessionCheck<S>
  ) throws(SessionShrinkError) -> ShrunkSession<S> {
    let session: RecordedSession<S>
    let start: S
    do {
      session = try RecordedSession(log, registry: registry)
      if let initialState {
        start = initialState
      } else {
        start = try ActionReplayer(registry: registry).recordedInitialState(log)
      }
    } catch let error as ActionLogError {
      if case .noInitialCheckpoint = error { throw .noInitialState }
      throw .unreadableLog(error)
    } catch {
      throw .unreadableLog(.malformedLine(line: 1, reason: String(describing: error)))
    }
    var evaluator = try ShrinkEvaluator(check: check, initialState: start)
    var entries = session.entries
    // A session is cut after the entry that broke it, which every sub-session keeps last.
    switch check.kind {
    case .diverges:
      entries = Array(entries[...(try evaluator.firstDivergence(in: entries))])
    case .expect(let path, _, let value):
      let breaking = try evaluator.lastChange(
        at: path, expected: value, summary: check.summary, in: entries)
      entries = Array(entries[...breaking])
    case .predicate, .throwing:
      break
    }
    let steps = Self.steps(of: entries)
    guard evaluator.fails(steps.flatMap { $0 }) else {
      throw .sessionPasses(check: check.summary)
    }
    var cache: [[Int]: Bool] = [:]
    let kept = DeltaDebugging.minimize(steps.count) { indices in
      if let known = cache[indices] { return known }
      let fails = evaluator.fails(indices.flatMap { steps[$0] })
      cache[indices] = fails
      return fails
    }
    var keptSteps = kept.map { steps[$0] }
    let replayable = replayableEffects(of: session)
    let effects = keptSteps.map { Self.effect(of: $0, in: session, replayable) }
    shrinkPayloads(of: &keptSteps, with: &evaluator, keepingStepsOf: effects)
    let keptEntries = keptSteps.flatMap { $0 }
    let sessionSteps = zip(keptSteps, effects).map { step, effect in
      SessionStep(entries: step.map(\.entry), effect: effect)
    }
    return ShrunkSession(
      initialState: start, steps: sessionSteps,
      recordedEntryCount: session.entries.count, checksRun: evaluator.checksRun,
      checkSummary: check.summary, expectedFinalState: evaluator.expectedFinalState(keptEntries))
  }

  /// The entries grouped into steps: an effect's updaters in a row stay together.
  ///
  /// An entry that names the effect that dispatched it (``ActionLogEntry/effect``, in a log
  /// that records effects) joins the step before it when that step's last entry names the same
  /// effect; in a log without effects, when both have the same cause and no recording run
  /// started between them.
  static func steps(of entries: [RecordedSession<S>.Entry]) -> [[RecordedSession<S>.Entry]] {
    var steps: [[RecordedSession<S>.Entry]] = []
    for entry in entries {
      if let last = steps.last?.last, Self.sameEffect(last, entry) {
        steps[steps.count - 1].append(entry)
      } else {
        steps.append([entry])
      }
    }
    return steps
  }

  /// Whether `entry` was dispatched by the same effect as `previous`, the entry before it.
  private static func sameEffect(
    _ previous: RecordedSession<S>.Entry, _ entry: RecordedSession<S>.Entry
  ) -> Bool {
    if let effect = entry.entry.effect, let previousEffect = previous.entry.effect {
      return effect == previousEffect && !entry.followsCheckpoint
    }
    guard let cause = entry.entry.cause, !entry.followsCheckpoint else { return false }
    return previous.entry.cause == cause
  }

  /// The effects of `session` that a test can start again, by their position in its effects:
  /// those whose start line has a payload that decodes through the registry, that finished, and
  /// that started no effect of their own (whose updaters a test would receive too).
  private func replayableEffects(of session: RecordedSession<S>) -> [Int: SessionStep<S>.Effect] {
    var replayable: [Int: SessionStep<S>.Effect] = [:]
    let parents = Set(session.effects.compactMap(\.parent))
    for (index, effect) in session.effects.enumerated() {
      guard effect.end == .finished, !parents.contains(effect.number), let payload = effect.payload,
        let codec = registry.effectCodec(named: effect.type),
        let decoded = try? codec.decode(Data(payload.text().utf8))
      else { continue }
      replayable[index] = SessionStep<S>.Effect(
        recorded: effect, typeName: SwiftSource.typeName(type(of: decoded)),
        payloadJSON: payload.text())
    }
    return replayable
  }

  /// The effect a test starts for `step`: the replayable effect whose updaters the step is,
  /// all of those the session has; `nil` for any other step.
  private static func effect(
    of step: [RecordedSession<S>.Entry], in session: RecordedSession<S>,
    _ replayable: [Int: SessionStep<S>.Effect]
  ) -> SessionStep<S>.Effect? {
    guard let index = step.first?.effectIndex, let effect = replayable[index],
      step.allSatisfy({ $0.effectIndex == index }),
      session.entries.count(where: { $0.effectIndex == index }) == step.count
    else { return nil }
    return effect
  }

  /// Replaces each kept ``ShrinkableUpdater`` by its first smaller candidate that still fails.
  ///
  /// Repeated until none does. The entry whose recorded diff a divergence check compares with keeps its
  /// payload: the diff is of that payload. So do the updaters of a step a test receives from its
  /// effect (`effects`, by step): the effect dispatches what it recorded.
  private func shrinkPayloads(
    of steps: inout [[RecordedSession<S>.Entry]], with evaluator: inout ShrinkEvaluator<S>,
    keepingStepsOf effects: [SessionStep<S>.Effect?]
  ) {
    for stepIndex in steps.indices where effects[stepIndex] == nil {
      for entryIndex in steps[stepIndex].indices
      where steps[stepIndex][entryIndex].entry.sequence != evaluator.divergingSequence {
        var shrinks = 0
        var improved = true
        while improved, shrinks < maximumPayloadShrinks {
          improved = false
          let entry = steps[stepIndex][entryIndex].entry
          for candidate in Self.smallerCandidates(of: entry.updater) {
            var trial = steps
            trial[stepIndex][entryIndex].entry = ActionLogEntry(
              sequence: entry.sequence, line: entry.line, type: entry.type, updater: candidate,
              cause: entry.cause, time: entry.time, site: entry.site, effect: entry.effect)
            if evaluator.fails(trial.flatMap { $0 }) {
              steps = trial
              shrinks += 1
              improved = true
              break
            }
          }
        }
      }
    }
  }

  private static func smallerCandidates(of updater: any StateUpdater<S>) -> [any StateUpdater<S>] {
    guard let shrinkable = updater as? any ShrinkableUpdater else { return [] }
    return candidates(of: shrinkable)
  }

  private static func candidates<U: ShrinkableUpdater>(of updater: U) -> [any StateUpdater<S>] {
    updater.smallerCandidates.compactMap { $0 as? any StateUpdater<S> }
  }
}

/// A recorded session shrunk by ``SessionShrinker``: the state it starts from and the steps
/// that still fail.
public struct ShrunkSession<S: State & Codable>: Sendable {
  /// The state the session started from.
  public let initialState: S
  /// The steps kept, in the order they were recorded.
  public let steps: [SessionStep<S>]
  /// How many entries the recorded session had.
  public let recordedEntryCount: Int
  /// How many sub-sessions were replayed and checked.
  public let checksRun: Int
  /// What the check says.
  public let checkSummary: String
  /// The encoded state the last step should end in, when the check says what is right.
  ///
  /// The value a pointer expects, or the change the log recorded; `nil` for a predicate or a
  /// thrown error.
  let expectedFinalState: JSONValue?

  /// The entries kept, across the steps.
  ///
  /// - Complexity: O(entries).
  public var entries: [ActionLogEntry<S>] { steps.flatMap(\.entries) }
}

/// One step of a shrunk session: an updater sent by the app, or the updaters one side effect
/// dispatched in a row.
public struct SessionStep<S: State>: Sendable {
  /// The entries of the step, in order.
  public let entries: [ActionLogEntry<S>]
  /// The effect that dispatched the entries, when the test can start it again: the log
  /// recorded its encoding (its type was registered with `registerEffect(_:name:)`), it
  /// finished and started no effect of its own, and the step holds every updater it dispatched.
  let effect: Effect?

  /// A recorded effect that a test starts again, fed its recorded values.
  struct Effect: Sendable {
    /// What the log says of it.
    var recorded: RecordedEffect
    /// Its Swift type name, as the test spells it.
    var typeName: String
    /// Its encoding, as JSON text.
    var payloadJSON: String
  }

  init(entries: [ActionLogEntry<S>], effect: Effect? = nil) {
    self.entries = entries
    self.effect = effect
  }
}

/// Zeller's *ddmin*, deterministic: the smallest subset it can find of `0..<count` that still
/// fails.
enum DeltaDebugging {
  /// A 1-minimal subset of `0..<count`, in order, for which `fails` holds, given that it holds
  /// for the whole.
  ///
  /// Splits the current set into `n` parts (2 at first), keeps a part that fails, else a
  /// complement that fails (then `n - 1` parts), else doubles `n`, until the parts are single
  /// elements and none can go.
  ///
  /// - Complexity: O(s × log(count)) calls of `fails` for a failure that needs s elements,
  ///   O(count²) at worst.
  static func minimize(_ count: Int, fails: ([Int]) -> Bool) -> [Int] {
    var current = Array(0..<count)
    if fails([]) { return [] }
    var parts = 2
    while current.count >= 2 {
      let chunks = split(current, into: parts)
      if let failing = chunks.first(where: fails) {
        current = failing
        parts = 2
        continue
      }
      if parts > 2,
        let complement = chunks.lazy.map({ chunk in
          let removed = Set(chunk)
          return current.filter { !removed.contains($0) }
        }).first(where: fails)
      {
        current = complement
        parts = max(parts - 1, 2)
        continue
      }
      guard parts < current.count else { break }
      parts = min(current.count, parts * 2)
    }
    return current
  }

  /// `elements` cut into `parts` runs of nearly equal length, in order.
  static func split(_ elements: [Int], into parts: Int) -> [[Int]] {
    var chunks: [[Int]] = []
    var start = 0
    for part in 0..<parts {
      let end = elements.count * (part + 1) / parts
      if end > start { chunks.append(Array(elements[start..<end])) }
      start = end
    }
    return chunks
  }
}
