import Navigation
import SideEffects
import StatusLineFeature
import TerminalKit
import TitleEditorFeature
import TodoDetailFeature
import TodoListFeature

/// What a screen of the terminal UI reaches: the store and its feature scopes, through handles
/// that do not keep them alive, and the callers awaiting sub-flows.
///
/// Screens hold this instead of the application, so that no screen reaches back into its
/// presenter: a screen dispatches, a modal finishes its sub-flow or is hidden, and the screen
/// that showed it does what the result asks.
@MainActor
struct ScreenStores {
  /// The app's store.
  let root: StoreHandle<AppState, TodoDependencies>
  /// The title editor feature, which checks a typed title.
  let titleEditor: StoreHandle<TitleEditorState, TitleEditorDependencies>
  /// The status line feature, for messages.
  let statusLine: StoreHandle<StatusLineState, StatusLineDependencies>
  /// The list feature: filters and sort.
  let list: StoreHandle<TodoListState, TodoDependencies>
  /// The detail feature: the todo open, and the date screen's entries.
  let detail: StoreHandle<TodoDetailState, TodoDetailDependencies>
  /// The callers awaiting a sub-flow's result.
  let callers: SubFlowCallers

  /// The app's clock, whose today the screens' dates are shown against.
  let clock: TodoClock

  /// Dispatches a navigation request; a refusal shows on the status line.
  func navigate(_ request: some NavigationDispatchable) async {
    do {
      try await root.dispatch(request)
    } catch {
      await report(error)
    }
  }

  /// Shows `request`'s sub-flow and hands its result to `caller`, in a task of its own.
  ///
  /// `caller` gets `nil` when the sub-flow closed without a result. Returns once the sub-flow
  /// is shown, or, if it could not be, with the reason on the status line.
  func call<Value: Sendable>(
    _ request: ShowForResult<Value>, then caller: @escaping @MainActor (Value?) async -> Void
  ) async {
    await call(request) { result -> ShowForResult<Value>? in
      await caller(result)
      return nil
    }
  }

  /// Shows `request`'s sub-flow and hands its result to `caller`, as ``call(_:then:)`` does, and
  /// then the sub-flow `caller` returns, if any, until it returns `nil`: so a title whose save
  /// failed is shown again in its box.
  func call<Value: Sendable>(
    _ request: ShowForResult<Value>,
    retrying caller: @escaping @MainActor (Value?) async -> ShowForResult<Value>?
  ) async {
    let root = root
    await callers.call { callers in
      var next: ShowForResult<Value>? = request
      while let request = next {
        let result: Value?
        do {
          result = try await callers.result(of: request, on: root)
        } catch {
          await report(error)
          return
        }
        next = await caller(result)
      }
    }
  }

  /// Saves `change` to storage and applies it; returns `false`, with the reason on the status
  /// line, if it was refused (a blank title, a todo removed by another process, a storage
  /// failure).
  @discardableResult
  func save(_ change: some TodoChange) async -> Bool {
    do {
      _ = try await root.dispatch(PerformChange(change))
      return true
    } catch {
      await report(error)
      return false
    }
  }

  /// Shows `message` on the status line until the next key.
  func show(status message: String) {
    statusLine.dispatch(ShowStatus(message))
  }

  /// Shows `error` on the status line, through the status line feature.
  func report(_ error: any Error) async {
    // `ReportError` itself never throws, and only a released store drops it: the app holds
    // its stores for as long as it runs, so there is nothing to lose here.
    try? await statusLine.dispatch(ReportError(error))
  }
}
