import StateStore
import Testing

// The README's example, kept compiling and running here.
private struct ReadmeState: State {
  var count = 0
}

private struct ReadmeIncrement: StateUpdater {
  func updateState(_ state: inout ReadmeState) { state.count += 1 }
}

private struct CountLabel: ViewModelWithState {
  let text: String
  init?(state: ReadmeState) { text = "Count: \(state.count)" }
}

@MainActor
@Suite("Examples: the README's example runs as documented")
struct ReadmeExampleTests {
  @Test("the subscriber prints Count: 0 at once, then Count: 1")
  func readmeExample() {
    var printed: [String] = []
    let store = Store<ReadmeState, Void>()
    let token = store.subscribe(CountLabel.self) { label in
      printed.append(label?.text ?? "")
    }
    store.dispatch(ReadmeIncrement())
    #expect(printed == ["Count: 0", "Count: 1"])
    _ = token
  }
}
