import StateStore
import StateStoreTesting
import Testing

@testable import TitleEditorFeature

/// A rule of the tests' own: the feature must report whatever the mounting app decides.
private let rule = TitleEditorDependencies { title in
  title.isEmpty ? "blank" : title == "forbidden" ? "not that one" : nil
}

@MainActor
@Suite("The title editor feature, alone")
struct TitleEditorFeatureTests {
  @Test("A submitted text is trimmed, accepted, and handed back")
  func accepts() async throws {
    let store = TestStore(initialState: TitleEditorState(), dependencies: rule)
    let handle = await store.send(SubmitTitle("  Buy milk  "))
    await store.receive(AcceptTitle(title: "Buy milk")) { $0.accepted = "Buy milk" }
    #expect(try await handle.value == "Buy milk")
    await store.finish()
  }

  @Test("The app's rule refuses a title, with the app's reason, and nothing is handed back")
  func refuses() async throws {
    let store = TestStore(initialState: TitleEditorState(), dependencies: rule)
    let handle = await store.send(SubmitTitle("forbidden"))
    await store.receive(RefuseTitle(reason: "not that one")) { $0.refusal = "not that one" }
    #expect(try await handle.value == nil)
    await store.finish()
  }

  @Test("Accepting a title clears the last refusal")
  func acceptClearsRefusal() {
    var state = TitleEditorState(refusal: "blank")
    AcceptTitle(title: "a").updateState(&state)
    #expect(state == TitleEditorState(accepted: "a", refusal: nil))
  }
}
