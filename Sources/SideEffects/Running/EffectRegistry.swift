import Foundation
import StateStore

/// The running effects of one store: what cancels them, which identifier each one holds, and
/// who wants to hear when one finishes.
///
/// Kept in the store's extension storage, so it lives and dies with the store.
@MainActor
final class EffectRegistry {
  private struct Running {
    let id: AnyHashable?
    let cancel: @Sendable () -> Void
  }

  private var nextToken: UInt64 = 0
  private var running: [UInt64: Running] = [:]
  private var identified: [AnyHashable: UInt64] = [:]
  private var finishObservers: [UInt64: @MainActor () -> Void] = [:]

  /// The registry of `store`, created on first use.
  static func of<S, D>(_ store: Store<S, D>) -> EffectRegistry {
    let key = ObjectIdentifier(EffectRegistry.self)
    if let registry = store.extensionStorage[key] as? EffectRegistry { return registry }
    let registry = EffectRegistry()
    store.extensionStorage[key] = registry
    return registry
  }

  /// How many effects are running.
  var count: Int { running.count }

  /// A fresh token naming one run.
  func makeToken() -> UInt64 {
    nextToken &+= 1
    return nextToken
  }

  /// The token of the effect running under `id`, if any.
  func token(runningUnder id: AnyHashable) -> UInt64? {
    identified[id]
  }

  /// Records a started effect.
  func begin(_ token: UInt64, id: AnyHashable?, cancel: @escaping @Sendable () -> Void) {
    running[token] = Running(id: id, cancel: cancel)
    if let id { identified[id] = token }
  }

  /// Records a finished effect and tells the observers.
  func end(_ token: UInt64) {
    guard let entry = running.removeValue(forKey: token) else { return }
    if let id = entry.id, identified[id] == token { identified[id] = nil }
    for observer in finishObservers.values { observer() }
  }

  /// Cancels the effect run named `token`; it stays registered until its body returns.
  func cancel(_ token: UInt64) {
    running[token]?.cancel()
  }

  /// Cancels every effect whose identifier is `id`.
  func cancel(identifiedBy id: AnyHashable) {
    if let token = identified[id] { cancel(token) }
  }

  /// Cancels every running effect.
  ///
  /// - Complexity: O(running effects).
  func cancelAll() {
    for entry in running.values { entry.cancel() }
  }

  /// Calls `observer` each time an effect finishes, until the token is cancelled.
  func observeFinishes(_ observer: @escaping @MainActor () -> Void) -> Subscription {
    let token = makeToken()
    finishObservers[token] = observer
    return Subscription { [weak self] in
      // Cancelling usually happens on the main thread; elsewhere the removal hops there.
      if Thread.isMainThread {
        MainActor.assumeIsolated { self?.finishObservers[token] = nil }
      } else {
        Task { @MainActor in self?.finishObservers[token] = nil }
      }
    }
  }
}
