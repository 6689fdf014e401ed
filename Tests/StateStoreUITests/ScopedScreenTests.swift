import Observation
import StateStoreUI
import Testing

/// A feature's slice, mounted in an app that knows more than the feature.
private struct InboxState: State, Equatable {
  var title = "Inbox"
  var unread = 0
}

private struct ShellState: State, Equatable {
  var inbox = InboxState()
  var elsewhere = 0
}

private struct RenameInbox: StateUpdater {
  let title: String
  func updateState(_ state: inout InboxState) { state.title = title }
}

private struct ChangeElsewhere: StateUpdater {
  func updateState(_ state: inout ShellState) { state.elsewhere += 1 }
}

private struct InboxTitle: ViewModelWithState {
  let text: String
  init(state: InboxState) { text = state.title }
}

private final class InboxTitleView: ModellableView {
  var model: InboxTitle?
  private(set) var shown: [String] = []
  func update(oldModel: InboxTitle?) {
    shown.append("\(oldModel?.text ?? "nil") → \(model?.text ?? "nil")")
  }
}

@MainActor
@Suite("Screens on a scope: connect and observe work on a feature's scoped store")
struct ScopedScreenTests {
  @Test("a view connected to a scope renders the slice's model, and only its changes")
  func connectOnAScope() {
    let app = Store<ShellState, Void>(dependencies: ())
    let inbox = app.scope(state: \.inbox)
    let view = InboxTitleView()
    let token = inbox.connect(view)
    app.dispatch(ChangeElsewhere())
    inbox.dispatch(RenameInbox(title: "Mail"))
    app.dispatch(ChangeElsewhere())
    #expect(view.shown == ["nil → Inbox", "Inbox → Mail"])
    #expect(app.state.inbox.title == "Mail")
    _ = token
  }

  @Test("an observed model of a scope reports each change of the slice's model exactly once")
  func observeOnAScope() {
    let app = Store<ShellState, Void>(dependencies: ())
    let observed = app.scope(state: \.inbox).observe(InboxTitle.self)
    let reports = ChangeCount()
    withObservationTracking {
      _ = observed.model
    } onChange: {
      reports.increment()
    }
    app.dispatch(ChangeElsewhere())
    #expect(reports.value == 0, "a change outside the slice leaves the model alone")
    app.scope(state: \.inbox).dispatch(RenameInbox(title: "Mail"))
    #expect(reports.value == 1)
    #expect(observed.model?.text == "Mail")
  }
}
