import SideEffects
import StateStoreTesting
import Testing

struct SlowSave: SideEffect {
  func sideEffect(_ context: SideEffectContext<NoteState, NoteDependencies>) async throws {
    try await Task.sleep(for: .seconds(3600))
  }
}

@MainActor
@Suite("TestStore diagnostics and features")
struct TestStoreDiagnosticsTests {
  static let fake = NoteDependencies { _ in }

  @Test("a feature's TestStore needs only the feature's state and dependencies")
  func featureTestStore() async {
    let store = TestStore(initialState: NoteState(), dependencies: Self.fake)
    await store.send(SetNote(text: "milk")) { $0.text = "milk" }
    await store.send(SaveNote())
    await store.receive(MarkSaved(text: "milk")) { $0.saved = ["milk"] }
    await store.finish()
  }

  @Test("a received updater of the expected type with other values shows a field diff")
  func receivedFieldDiff() async {
    let store = TestStore(initialState: NoteState(), dependencies: Self.fake)
    await store.send(SetNote(text: "milk")) { $0.text = "milk" }
    await store.send(SaveNote())
    await withKnownIssue {
      await store.receive(MarkSaved(text: "eggs")) { $0.saved = ["milk"] }
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("other values") && text.contains("text: \"eggs\" → \"milk\"")
    }
    await store.finish()
  }

  @Test("send does not fold updaters queued by interceptors: they are received")
  func interceptorQueuedUpdatersAreReceived() async {
    let echo = StoreInterceptor<NoteState> { dispatchable, context, next in
      next(dispatchable)
      if let set = dispatchable as? SetNote { context.dispatch(MarkSaved(text: set.text)) }
    }
    let store = TestStore(
      initialState: NoteState(), dependencies: Self.fake, interceptors: [echo])
    await store.send(SetNote(text: "milk")) { $0.text = "milk" }
    await store.receive(MarkSaved(text: "milk")) { $0.saved = ["milk"] }
  }

  @Test("an effect still running at the end is reported at the send that started it")
  func leftoverEffectAtItsSend() async {
    let sendLine = #line + 3
    await withKnownIssue {
      let store = TestStore(initialState: NoteState(), dependencies: Self.fake)
      await store.send(SlowSave())
      _ = store
    } matching: { issue in
      issue.sourceLocation?.line == sendLine
        && String(describing: issue).contains("SlowSave was sent here")
    }
  }
}
