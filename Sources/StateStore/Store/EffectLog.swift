/// What an action log hears of a store's side effects: each start, each end, and the values
/// the effects get from their dependencies.
///
/// Plumbing between our modules: `SideEffects` tells it, `ActionLog` (a recorder, or recorded
/// effects fed to a replay) listens. A store holds at most one, weakly, at its root
/// (``Store/attachEffectLog(_:)``); a scope's effects use their root's. While none is
/// attached, an effect costs nothing more than it did: the store checks one dictionary slot
/// when the effect starts, and an effect that records a value reads one task-local.
@MainActor
package protocol EffectLog: AnyObject, Sendable {
  /// An effect started; returns the number the log gives it (from 1), or `nil` to ignore it.
  func effectStarted(_ start: EffectLogStart) -> Int?
  /// The effect numbered `number` ended with `outcome`.
  func effectEnded(_ number: Int, outcome: EffectLogOutcome)
  /// Whether an effect's dependency values come from the log (a replay) instead of its live
  /// dependencies.
  var replaysValues: Bool { get }
  /// Records `value`, which the effect numbered `number` got from a dependency.
  func recordValue<Value: Encodable>(_ value: Value, label: String, ofEffect number: Int)
  /// Records that a dependency of the effect numbered `number` threw `description`.
  func recordFailure(_ description: String, label: String, ofEffect number: Int)
  /// The next value recorded for the effect numbered `number`, in a replay.
  ///
  /// - Throws: What the dependency threw when it was recorded, or an error naming the effect
  ///   and its entry when the log has no such value.
  func recordedValue<Value: Decodable>(
    _ type: Value.Type, label: String, ofEffect number: Int
  ) throws -> Value
}

/// The start of one side effect, as an ``EffectLog`` hears it.
package struct EffectLogStart: Sendable {
  /// The effect's type name.
  package var type: String
  /// Its cancellation identifier, described; `nil` for none.
  package var id: String?
  /// Its cause: its name, where it was dispatched and what caused that.
  package var cause: DispatchCause
  /// The log's number for the effect whose task started this one, if any.
  package var parent: Int?
  /// The effect itself, which a log may encode so that a replay can start it again.
  package var effect: any Dispatchable

  package init(
    type: String, id: String?, cause: DispatchCause, parent: Int?, effect: any Dispatchable
  ) {
    self.effect = effect
    self.type = type
    self.id = id
    self.cause = cause
    self.parent = parent
  }
}

/// How a side effect ended, as an ``EffectLog`` hears it.
package enum EffectLogOutcome: Sendable, Hashable {
  /// It returned.
  case finished
  /// It threw this error, described.
  case failed(String)
  /// It was cancelled by what this says: a cancellation policy, an explicit cancel, a shutdown.
  case cancelled(by: String)
}

extension EffectLog {
  /// The value recorded for a dependency call of the effect numbered `number`, when this log
  /// replays values; `nil` when the dependency is to be called and its value recorded.
  package func replayedValue<Value: Decodable>(
    _ type: Value.Type, label: String, ofEffect number: Int
  ) throws -> Value? {
    guard replaysValues else { return nil }
    return try recordedValue(type, label: label, ofEffect: number)
  }
}

/// An effect that an ``EffectLog`` follows: its number there, and the log, bound to the
/// effect's task (``current``) only while a log follows it.
///
/// The effect's recorded values go to the log that numbered it, even if another is attached
/// since; a recorder names the effect on the updaters it dispatches.
@usableFromInline
package struct LoggedEffect: Sendable {
  /// The effect's number in ``log``.
  package let number: Int
  /// The log that follows the effect.
  package let log: any EffectLog

  package init(number: Int, log: any EffectLog) {
    self.number = number
    self.log = log
  }

  /// The logged effect the current task runs; `nil` outside a logged effect.
  @TaskLocal package static var current: LoggedEffect?
}

/// The weak reference to a root store's ``EffectLog``, kept in its extension storage.
final class EffectLogSlot {
  weak var log: (any EffectLog)?
}

extension Store {
  /// The effect log of this store's root, if one is attached.
  package var effectLog: (any EffectLog)? {
    _runtime._root(of: self)?.effectLogFromScope as? any EffectLog
  }

  /// The effect log attached to this store, a root.
  var ownEffectLog: (any EffectLog)? {
    (_extensionStorage[ObjectIdentifier(EffectLogSlot.self)] as? EffectLogSlot)?.log
  }

  /// Attaches `log` to this store's root, replacing any other; `nil` detaches.
  ///
  /// The store holds it weakly.
  package func attachEffectLog(_ log: (any EffectLog)?) {
    _runtime._root(of: self)?.attachEffectLogFromScope(log)
  }

  /// Attaches `log` to this store, a root, replacing any other; `nil` detaches.
  func attachOwnEffectLog(_ log: (any EffectLog)?) {
    let key = ObjectIdentifier(EffectLogSlot.self)
    if let log {
      let slot = _extensionStorage[key] as? EffectLogSlot ?? EffectLogSlot()
      slot.log = log
      _extensionStorage[key] = slot
    } else {
      _extensionStorage[key] = nil
    }
  }
}
