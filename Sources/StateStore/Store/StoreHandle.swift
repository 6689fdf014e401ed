/// A handle on a store that does not keep it alive: what screens hold to reach the store.
///
/// A screen is kept alive by the navigator inside the store's dependencies, so a strong
/// reference from the screen to the store would keep both alive forever. A handle holds the
/// store weakly in one place, so a screen's closures capture the handle as it is, with no
/// `[weak ...]` and no guard: once the store is released, an updater dispatched through the
/// handle is dropped, and an awaited dispatch throws ``StoreReleasedError``.
///
/// ```swift
/// @MainActor final class CounterScreen {
///   let store: StoreHandle<AppState, AppDependencies>
///   init(store: StoreHandle<AppState, AppDependencies>) { self.store = store }
///   func tappedIncrement() { store.dispatch(Increment()) }
/// }
///
/// let screen = CounterScreen(store: store.handle)
/// ```
///
/// The SideEffects and Navigation modules add `dispatch` for effects and navigation requests.
@MainActor
public struct StoreHandle<S: State, Dependencies: Sendable>: Sendable {
  /// The store, while it exists.
  public private(set) weak var store: Store<S, Dependencies>?

  /// Creates a handle on `store`.
  public init(_ store: Store<S, Dependencies>) {
    self.store = store
  }

  /// The store's current state, or `nil` once the store is released or, for a scope, once its
  /// slice is gone (see ``Store/stateIfAvailable``).
  public var state: S? { store?.stateIfAvailable }

  /// Dispatches `updater`; does nothing once the store is released.
  ///
  /// `fileID` and `line` name the call, as ``Store/dispatch(_:fileID:line:)`` records them;
  /// leave them to their defaults.
  public func dispatch<U: StateUpdater>(
    _ updater: U, fileID: String = #fileID, line: Int = #line
  ) where U.StateType == S {
    store?.dispatch(updater, fileID: fileID, line: line)
  }

  /// Calls `body` with the store.
  ///
  /// - Throws: ``StoreReleasedError`` once the store is released, or what `body` throws.
  public func withStore<Result>(
    _ body: (Store<S, Dependencies>) async throws -> Result
  ) async throws -> Result {
    guard let store else { throw StoreReleasedError(for: S.self) }
    return try await body(store)
  }
}

extension Store {
  /// A handle on this store that does not keep it alive: give it to screens.
  public var handle: StoreHandle<S, Dependencies> { StoreHandle(self) }
}

/// An awaited dispatch went through a ``StoreHandle`` whose store is released.
///
/// Fakes and wrappers of a screen's store can throw it too, as the handle does.
public struct StoreReleasedError: Error, Hashable, CustomStringConvertible {
  /// The state type of the released store.
  public let stateType: String

  /// Creates the error for a released store whose state type is named `stateType`.
  public init(stateType: String) {
    self.stateType = stateType
  }

  /// Creates the error for a released store of `State`.
  public init<State>(for state: State.Type) {
    self.init(stateType: String(reflecting: state))
  }

  /// Names the store.
  public var description: String {
    "the Store<\(stateType), …> this handle refers to has been released"
  }
}
