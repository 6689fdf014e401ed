import Foundation
import StateStore

/// What an ``ActionRecorder`` with ``ActionRecorder/Options/recordsEffects`` attaches to its
/// store: it writes each effect's start, values and end as effect lines.
@MainActor
final class EffectRecording: EffectLog {
  /// Writes one effect line under the log's lock; the recorder's.
  ///
  /// It makes the line from the `seq` of the last entry, and does not make it when the line
  /// cannot be written.
  private let write: @MainActor ((Int) -> Data) -> Void
  /// Reports an error of the recording; the recorder's.
  private let report: @MainActor (ActionLogError) -> Void
  /// The time on the effect clock since recording started.
  private let elapsed: @Sendable () -> Duration
  private var nextNumber = 0
  /// When each running effect started, by its number.
  private var starts: [Int: Duration] = [:]
  /// The cause each running effect gives its updaters, by its number.
  private var causes: [Int: String] = [:]
  private let encoder: JSONEncoder
  /// The encoder of a registered effect type; `nil` for another.
  private let effectCodec: (any Dispatchable) -> EffectCodec?

  /// Writes the effects of a log whose largest effect number so far is `lastEffect`: the
  /// first effect is numbered after it.
  init(
    clock: any Clock<Duration>, numberingAfter lastEffect: Int,
    effectCodec: @escaping (any Dispatchable) -> EffectCodec?,
    write: @escaping @MainActor ((Int) -> Data) -> Void,
    report: @escaping @MainActor (ActionLogError) -> Void
  ) {
    self.effectCodec = effectCodec
    self.nextNumber = lastEffect
    self.elapsed = Self.stopwatch(clock)
    self.write = write
    self.report = report
    let encoder = JSONEncoder()
    // As for payloads: the same value is the same bytes.
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    self.encoder = encoder
  }

  /// The time elapsed on `clock` since this call, at each call of the result.
  private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
    let origin = clock.now
    return { origin.duration(to: clock.now) }
  }

  /// Notes that other writers of the log numbered effects up to `number`: the next effect
  /// started here is numbered after it.
  func numberAfter(_ number: Int) {
    nextNumber = max(nextNumber, number)
  }

  func effectStarted(_ start: EffectLogStart) -> Int? {
    let started = elapsed()
    var payload: Data?
    if let codec = effectCodec(start.effect) {
      do {
        payload = try codec.encode(start.effect, encoder)
      } catch {
        report(.encodingFailed(type: codec.name, reason: String(describing: error)))
      }
    }
    // Numbered under the log's lock, after any effect another writer numbered since.
    var written: Int?
    write { after in
      nextNumber += 1
      written = nextNumber
      return EffectLine.startLine(start, number: nextNumber, after: after, payload: payload)
    }
    guard let number = written else { return nil }
    starts[number] = started
    causes[number] = start.cause.name
    return number
  }

  func effectEnded(_ number: Int, outcome: EffectLogOutcome) {
    let duration = starts.removeValue(forKey: number).map { elapsed() - $0 }
    causes[number] = nil
    write { _ in Data(EffectLine.endText(outcome, effect: number, duration: duration).utf8) }
  }

  /// The number of the running effect that dispatched an updater applied now with `cause`:
  /// the effect of the current task, if it gives its updaters that cause; `nil` when unknown.
  ///
  /// An updater applied at once is applied in the dispatching task. One applied later (held
  /// by an interceptor) may be applied in another task, whose effect gives its updaters
  /// another cause, or none: it then names no effect rather than the wrong one.
  func effect(dispatching cause: DispatchCause?) -> Int? {
    guard let current = LoggedEffect.current, current.log === self, let cause,
      causes[current.number] == cause.name
    else { return nil }
    return current.number
  }

  var replaysValues: Bool { false }

  func recordValue<Value: Encodable>(_ value: Value, label: String, ofEffect number: Int) {
    do {
      let json = try encoder.encode(value)
      write { _ in EffectLine.valueText(json, label: label, effect: number) }
    } catch {
      let reason = String(describing: error)
      report(.encodingFailed(type: String(reflecting: Value.self), reason: reason))
      recordFailure("not recorded: \(reason)", label: label, ofEffect: number)
    }
  }

  func recordFailure(_ description: String, label: String, ofEffect number: Int) {
    write { _ in
      Data(EffectLine.failureText(description, label: label, effect: number).utf8)
    }
  }

  func recordedValue<Value: Decodable>(
    _ type: Value.Type, label: String, ofEffect number: Int
  ) throws -> Value {
    // Never asked: a recorder does not replay values.
    throw EffectReplayError(
      effect: "effect \(number)", entry: 0, label: label, problem: .valueNotRecorded)
  }
}
