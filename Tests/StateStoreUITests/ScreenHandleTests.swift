import StateStoreUI
import Testing

/// Collects the runtime warnings reported while it lives, and restores the default report.
@MainActor
final class RuntimeWarnings {
  private(set) var messages: [String] = []

  init() {
    RuntimeWarning.reset()
    RuntimeWarning.report = { [weak self] message in self?.messages.append(message) }
  }

  /// Stops collecting.
  func stop() {
    RuntimeWarning.report = { _ in }
    RuntimeWarning.reset()
  }
}

/// A shell that mounts the app's state as a feature, for screens made on a scope.
struct ShellOfApp: State {
  var app = AppState()
}

@Suite("One handle for screens: controllers, connect and observe take a StoreHandle", .serialized)
@MainActor
struct ScreenHandleTests {
  @Test("a controller made from a handle connects while visible and dispatches through it")
  func controllerFromAHandle() {
    let store = makeStore()
    let controller = ScreenController(view: TitleView(), store: store.handle) {
      view, controller in
      view.didTapRename = { [weak controller] title in
        controller?.handle.dispatch(SetTitle(title: title))
      }
    }
    controller.appear()
    controller.view.didTapRename("Work")
    #expect(store.state.title == "Work")
    #expect(controller.view.updates == [update(nil, "Inbox"), update("Inbox", "Work")])
  }

  @Test("a controller on a scope nobody keeps warns once, naming the line that made it")
  func releasedScopeWarnsOnce() {
    let warnings = RuntimeWarnings()
    defer { warnings.stop() }
    let shell = Store<ShellOfApp, Void>(dependencies: ())
    var controllers: [ScreenController<TitleView, Void>] = []
    var line = 0
    for _ in 0..<2 {
      // The trial's mistake: the scope is made for the controller, and nothing else holds it.
      line = #line + 1
      controllers.append(ScreenController(view: TitleView(), store: shell.scope(state: \.app)))
    }
    for controller in controllers { controller.appear() }
    #expect(controllers.allSatisfy { $0.view.model == nil })
    #expect(warnings.messages.count == 1)
    let message = warnings.messages.first ?? ""
    #expect(message.hasPrefix("StateStoreUITests/ScreenHandleTests.swift:\(line): "))
    #expect(message.contains("ScreenController made here has no store"))
  }

  @Test("a controller on a scope someone keeps shows it, and never warns")
  func keptScopeWorks() {
    let warnings = RuntimeWarnings()
    defer { warnings.stop() }
    let shell = Store<ShellOfApp, Void>(dependencies: ())
    let scope = shell.scope(state: \.app)
    let controller = ScreenController(view: TitleView(), store: scope)
    controller.appear()
    #expect(controller.view.model?.text == "Inbox")
    #expect(warnings.messages.isEmpty)
    withExtendedLifetime(scope) {}
  }

  @Test("connect and observe through a handle work, and warn when its store is gone")
  func connectAndObserveThroughAHandle() {
    let warnings = RuntimeWarnings()
    defer { warnings.stop() }
    let store = makeStore()
    let view = TitleView()
    let connection = store.handle.connect(view)
    let observed = store.handle.observe(TitleViewModel.self)
    store.dispatch(SetTitle(title: "Work"))
    #expect(view.model?.text == "Work")
    #expect(observed.model?.text == "Work")
    connection.cancel()
    let shell = Store<ShellOfApp, Void>(dependencies: ())
    let gone = shell.scope(state: \.app).handle
    let connectLine = #line + 1
    _ = gone.connect(TitleView())
    let observeLine = #line + 1
    #expect(gone.observe(TitleViewModel.self).model == nil)
    #expect(
      warnings.messages.map { $0.components(separatedBy: ": ").first ?? "" } == [
        "StateStoreUITests/ScreenHandleTests.swift:\(connectLine)",
        "StateStoreUITests/ScreenHandleTests.swift:\(observeLine)",
      ])
  }

  @Test("StoreReleasedError can be made outside the library, as a fake store throws it")
  func storeReleasedErrorIsPublic() {
    let error = StoreReleasedError(for: AppState.self)
    #expect(error == StoreReleasedError(stateType: String(reflecting: AppState.self)))
    #expect(error.description.contains("AppState"))
  }
}
