import Foundation
import Synchronization

/// An interceptor that dispatches items in response to events, as Katana's did: the store
/// starting, a state change, a dispatch of a given type, or a notification.
///
/// Each item is a type with a failable initializer; an initializer that returns `nil` skips the
/// dispatch. Items go through every interceptor, after the dispatch that caused them. Items built
/// from a notification reach the store on its next turn on the main actor, in posting order.
///
/// ```swift
/// let observer = ObserverInterceptor<AppState>.observe([
///   .onStart([LoadTodos.self]),
///   .whenStateChanged({ old, new in old.todos != new.todos }, [SaveTodos.self]),
///   .whenDispatched(Logout.self, [ClearCache.self]),
///   .onNotification(.NSSystemClockDidChange, [RefreshDueDates.self]),
/// ])
/// let store = Store(initialState: AppState(), dependencies: deps, interceptors: [observer])
/// ```
public enum ObserverInterceptor<S: State> {
  /// One event to watch and the items to dispatch when it happens.
  public enum ObserverType: Sendable {
    /// When the store starts, before its initializer returns.
    case onStart(_ dispatchables: [any OnStartObserverDispatchable.Type])
    /// After every updater for which `predicate(old, new)` holds.
    case whenStateChanged(
      _ predicate: @Sendable (_ old: S, _ new: S) -> Bool,
      _ dispatchables: [any StateObserverDispatchable<S>.Type])
    /// After each dispatch of an item of exactly `dispatchableType`.
    ///
    /// For a side effect, `currentState` is the state when the effect starts: its updaters
    /// come later.
    case whenDispatched(
      _ dispatchableType: any Dispatchable.Type,
      _ dispatchables: [any DispatchObserverDispatchable<S>.Type])
    /// On each notification named `name` posted to `NotificationCenter.default`.
    case onNotification(
      _ name: Notification.Name, _ dispatchables: [any NotificationObserverDispatchable.Type])
  }

  /// Creates an interceptor that watches `observers`.
  ///
  /// Notification observers are registered each time a store starts with the interceptor, are
  /// owned by that store, and are removed when that store is released, whatever else keeps the
  /// interceptor (a `static let`, or one value shared by several stores).
  ///
  /// - Complexity: Each dispatch costs O(state-change and dispatch observers), plus the
  ///   predicates' own cost.
  public static func observe(_ observers: [ObserverType]) -> StoreInterceptor<S> {
    let onStart: @MainActor @Sendable (InterceptorContext<S>) -> Void = { context in
      let notifications = NotificationObservations()
      context.keepAliveWithStore(notifications)
      for observer in observers {
        switch observer {
        case .onStart(let types):
          for type in types {
            if let item = type.init() { context.dispatch(item) }
          }
        case .onNotification(let name, let types):
          notifications.observe(name, types, dispatch: context.dispatch)
        case .whenStateChanged, .whenDispatched:
          continue
        }
      }
    }
    let watchesDispatches = observers.contains {
      switch $0 {
      case .whenStateChanged, .whenDispatched: return true
      case .onStart, .onNotification: return false
      }
    }
    guard watchesDispatches else {
      return StoreInterceptor(onStart: onStart) { dispatchable, _, next in next(dispatchable) }
    }
    return StoreInterceptor(onStart: onStart) { dispatchable, context, next in
      let old = context.state
      next(dispatchable)
      let new = context.state
      respond(to: dispatchable, old: old, new: new, observers: observers, context: context)
    }
  }

  @MainActor
  private static func respond(
    to dispatchable: any Dispatchable, old: S, new: S, observers: [ObserverType],
    context: InterceptorContext<S>
  ) {
    let isUpdater = dispatchable is any StateUpdater
    for observer in observers {
      switch observer {
      case .whenStateChanged(let predicate, let types):
        guard isUpdater, predicate(old, new) else { continue }
        for type in types {
          if let item = type.init(prevState: old, currentState: new) { context.dispatch(item) }
        }
      case .whenDispatched(let watched, let types):
        guard ObjectIdentifier(Swift.type(of: dispatchable)) == ObjectIdentifier(watched) else {
          continue
        }
        for type in types {
          if let item = type.init(dispatchedItem: dispatchable, prevState: old, currentState: new) {
            context.dispatch(item)
          }
        }
      case .onStart, .onNotification:
        continue
      }
    }
  }
}

/// The notification-center registrations one store made through an observer interceptor; the
/// store owns them, and they are removed when it releases them.
private final class NotificationObservations: Sendable {
  /// `NotificationCenter` tokens are opaque objects; they are only stored here and handed back
  /// to `removeObserver(_:)`, never used otherwise.
  private struct Token: @unchecked Sendable {
    let value: any NSObjectProtocol
  }

  private let tokens = Mutex<[Token]>([])

  func observe(
    _ name: Notification.Name, _ types: [any NotificationObserverDispatchable.Type],
    dispatch: @escaping @MainActor (any Dispatchable) -> Void
  ) {
    let deliver = MainActorDispatch(dispatch)
    let token = NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) {
      notification in
      let items = types.compactMap { $0.init(notification: notification) }
      guard !items.isEmpty else { return }
      deliver.send(items)
    }
    tokens.withLock { $0.append(Token(value: token)) }
  }

  deinit {
    for token in tokens.withLock({ $0 }) {
      NotificationCenter.default.removeObserver(token.value)
    }
  }
}

/// Sends items to a store's dispatch from any thread, in the order they were sent.
///
/// Each send appends to a buffer and schedules a main-actor drain that takes everything
/// buffered, so the order holds even if the drains themselves run out of order.
private final class MainActorDispatch: Sendable {
  private let dispatch: @MainActor @Sendable (any Dispatchable) -> Void
  private let pending = Mutex<[any Dispatchable]>([])

  init(_ dispatch: @escaping @MainActor (any Dispatchable) -> Void) {
    self.dispatch = { dispatchable in dispatch(dispatchable) }
  }

  func send(_ items: [any Dispatchable]) {
    pending.withLock { $0.append(contentsOf: items) }
    Task { @MainActor in
      let items = self.pending.withLock { pending in
        defer { pending.removeAll() }
        return pending
      }
      for item in items { self.dispatch(item) }
    }
  }
}
