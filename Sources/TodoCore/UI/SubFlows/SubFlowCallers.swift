import Navigation
import TerminalKit

/// The screens' callers that await a sub-flow's result, so that keys keep flowing while they wait.
///
/// A key handler cannot await a sub-flow itself: the keys that answer it (`y`, Enter, Esc) come
/// after the handler returns. So a caller runs in a task of its own, started by ``call(_:)``, and
/// the terminal loop waits only until every caller is *settled*: finished, or waiting for a
/// sub-flow that is on the route. A sub-flow leaves the route in the same step that resumes its
/// caller (a `Finish`, a `Hide`, any route change), so after a key that answers one, ``settle()``
/// also waits for what the caller does with the result, such as saving it: the frame drawn next
/// shows it, and a test reads it without sleeping.
@MainActor
final class SubFlowCallers {
  /// The navigator whose route tells whether a caller's sub-flow is shown; weak, because the
  /// screens that hold this object are held by that navigator.
  private weak var navigator: Navigator?
  /// Callers neither finished nor waiting for a shown sub-flow.
  private var unsettled = 0
  private var settleWaiters: [CheckedContinuation<Void, Never>] = []

  /// Creates the callers of sub-flows shown by `navigator`.
  init(navigator: Navigator) {
    self.navigator = navigator
  }

  /// Starts `caller` in a task of its own and returns once it is settled: finished, or waiting
  /// for the sub-flow it showed with ``result(of:on:)``.
  func call(_ caller: @escaping @MainActor (SubFlowCallers) async -> Void) async {
    unsettled += 1
    Task {
      await caller(self)
      self.count(by: -1)
    }
    await settle()
  }

  /// Dispatches `request` to `store` and awaits the sub-flow's result: the caller counts as
  /// settled while the sub-flow is on the route.
  ///
  /// - Throws: What the dispatch throws: `NavigationError` when the screen cannot be shown.
  func result<Value: Sendable, S, D: NavigationProvider>(
    of request: ShowForResult<Value>, on store: StoreHandle<S, D>
  ) async throws -> Value? {
    let identifier = request.identifier
    var isShown = false
    let observation = navigator?.observeRoute { [weak self] _, route in
      guard let self, route.contains(identifier) != isShown else { return }
      isShown.toggle()
      self.count(by: isShown ? -1 : 1)
    }
    defer {
      observation?.cancel()
      if isShown { count(by: 1) }
    }
    return try await store.dispatch(request)
  }

  /// Returns once every caller is settled.
  func settle() async {
    while unsettled > 0 {
      await withCheckedContinuation { settleWaiters.append($0) }
    }
  }

  private func count(by change: Int) {
    unsettled += change
    guard unsettled <= 0 else { return }
    let waiters = settleWaiters
    settleWaiters.removeAll()
    for waiter in waiters { waiter.resume() }
  }
}
