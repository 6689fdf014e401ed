import Navigation
import StatusLineFeature
import TerminalKit
import TitleEditorFeature
import TodoDetailFeature
import TodoListFeature

/// The todo app's terminal UI: one store, one navigator, and the screens on its route.
///
/// The application owns no screen state of its own. What it draws comes from the navigator's
/// route (which screens, in which order) and from each screen's view model (what they show);
/// what a key does is up to the screen in front, which dispatches `Show`, `Hide`, `Finish` or a
/// saved change to the store. No screen refers to the application: each reaches the store
/// through ``ScreenStores``.
///
/// Layout, top to bottom: the route as a breadcrumb, the body of the topmost full screen with any
/// modal screens drawn as boxes over it, a status line for messages, and the keys of the screen
/// in front.
@MainActor
final class TodoTerminalApp: TerminalApplication {
  /// The store that holds the todos and resolves navigation.
  let store: TodoStore
  /// The title editor feature, mounted on ``AppState/titleEditor``.
  let titleEditor: Store<TitleEditorState, TitleEditorDependencies>
  /// The status line feature, mounted on ``AppState/statusLine``.
  let statusLine: Store<StatusLineState, StatusLineDependencies>
  /// The list feature (filters and sort), mounted on ``AppState/list``.
  let list: Store<TodoListState, TodoDependencies>
  /// The detail feature (the todo open, the date screen's entries), mounted on
  /// ``AppState/detail``.
  let detail: Store<TodoDetailState, TodoDetailDependencies>
  private(set) var exitCode: Int32?

  /// A message for the status line, such as why a title was refused; cleared by the next key.
  var status: String? {
    get { statusLine.state.message }
    set {
      guard newValue != statusLine.state.message else { return }
      if let newValue {
        statusLine.dispatch(ShowStatus(newValue))
      } else {
        statusLine.dispatch(ClearStatus())
      }
    }
  }
  /// The screens drawn now, each connected to the store; see ``updateVisibleScreens()``.
  private var visibleScreens: [any TodoScreen] = []
  private var routeObservation: Subscription?
  /// What the screens reach: the store and its scopes, by handle, and the callers awaiting a
  /// sub-flow's result.
  let stores: ScreenStores

  /// The list screen, the root of the route unless another navigator was given.
  let listScreen: ListScreen

  /// Creates the UI on `storage`, starting from `state` with the `list` screen as the root.
  ///
  /// A test may give `navigator`, such as a navigation witness's, which then resolves the
  /// screens' requests instead of one whose root is the list.
  init(
    storage: any TodoStorage, state: AppState, clock: TodoClock = .system,
    navigator: Navigator? = nil
  ) {
    let listScreen = ListScreen()
    let navigator = navigator ?? Navigator(root: listScreen)
    self.listScreen = listScreen
    store = Store(
      initialState: state,
      dependencies: TodoDependencies(storage: storage, navigator: navigator, clock: clock))
    titleEditor = store.scope(state: \.titleEditor, dependencies: \.titleEditor)
    statusLine = store.scope(state: \.statusLine, dependencies: \.statusLine)
    list = store.scope(state: \.list)
    detail = store.scope(state: \.detail, dependencies: \.detail)
    stores = ScreenStores(
      root: store.handle, titleEditor: titleEditor.handle, statusLine: statusLine.handle,
      list: list.handle, detail: detail.handle, callers: SubFlowCallers(navigator: navigator),
      clock: clock)
    listScreen.connect(to: stores) { [weak self] in self?.quit() }
    routeObservation = navigator.observeRoute { [weak self] _, _ in
      self?.updateVisibleScreens()
    }
    updateVisibleScreens()
  }

  /// The screens the frame shows: the topmost full screen and the modal boxes over it.
  private var drawnScreens: [any TodoScreen] {
    let screens = navigator.visibleRoutables.compactMap { $0 as? any TodoScreen }
    let base = screens.lastIndex { !$0.isModal } ?? 0
    return Array(screens[base...])
  }

  /// Disconnects the screens no longer drawn and connects the ones that now are.
  ///
  /// Called after every route change, so a screen under a pushed one stops rendering and gets
  /// the current model at once when it shows again.
  private func updateVisibleScreens() {
    let drawn = drawnScreens
    for screen in visibleScreens where !drawn.contains(where: { $0 === screen }) {
      screen.disappear()
    }
    for screen in drawn where !visibleScreens.contains(where: { $0 === screen }) {
      screen.appear()
    }
    visibleScreens = drawn
  }

  /// The navigator that resolves the screens' requests.
  var navigator: Navigator { store.dependencies.navigator }

  /// The route, from `list` to the screen in front.
  var route: Route { navigator.currentRoute }

  func handle(_ key: Key) async {
    status = nil
    guard let screen = navigator.topmostRoutable as? any TodoScreen else { return }
    await screen.handle(key)
    // A key that answered a sub-flow resumed its caller: let it finish what it does with the
    // result (save it), so that the next frame shows it.
    await stores.callers.settle()
  }

  /// The storage's revision when the UI last caught up with it.
  private var seenRevision: StorageRevision?

  /// Shows what another process stored since the last look: the todos are replaced by the
  /// stored ones (``LoadStoredState``); the features' slices, such as a title being typed or a
  /// filter, stay as they are.
  ///
  /// Cheap when nothing changed: the storage tells by its revision (on disk, the journaled
  /// store's polling applies other processes' changes as they come, and each bumps it). A read
  /// that fails keeps the todos last shown and says so on the status line; it is tried again
  /// on the next tick, and the message goes once a read succeeds.
  ///
  /// - Complexity: O(1) when nothing changed, O(todos) otherwise.
  func refresh() async -> Bool {
    let storage = store.dependencies.storage
    let stored: StoredState?
    do {
      stored = try await storage.changes(since: seenRevision)
    } catch {
      let message = Self.reloadFailure(error)
      guard status != message else { return false }
      status = message
      return true
    }
    let cleared = status?.hasPrefix(Self.reloadFailurePrefix) == true
    if cleared { status = nil }
    guard let stored else { return cleared }
    seenRevision = stored.revision
    guard !store.state.hasSameTodos(as: stored.state) else { return cleared }
    store.dispatch(LoadStoredState(stored.state))
    return true
  }

  private static let reloadFailurePrefix = "Cannot reload, showing the todos as last read: "

  /// The status line's message for a reload that failed with `error`.
  static func reloadFailure(_ error: any Error) -> String {
    reloadFailurePrefix + "\(error)"
  }

  /// Ends the UI with exit status 0.
  func quit() {
    exitCode = 0
  }

  // MARK: - Saving

  /// Saves `change` to storage and applies it; returns `false`, with the reason on the status
  /// line, if it was refused.
  @discardableResult
  func save(_ change: some TodoChange) async -> Bool {
    await stores.save(change)
  }

  // MARK: - Drawing

  func frame(width: Int, height: Int) -> Frame {
    var frame = Frame(width: width, height: height)
    frame.draw(route.joined(separator: " › "), row: 0)
    let body = Frame.Area(
      row: 1, column: 0, width: frame.width, height: max(frame.height - 3, 0))
    let screens = drawnScreens
    // Modal screens draw over the full screen they were presented from.
    for screen in screens {
      screen.draw(in: &frame, body: body)
    }
    if frame.height > 2, let status {
      frame.draw(status, row: frame.height - 2)
    }
    if frame.height > 1, let front = screens.last {
      frame.draw(KeyHint.line(front.keyHints), row: frame.height - 1)
    }
    return frame
  }
}
