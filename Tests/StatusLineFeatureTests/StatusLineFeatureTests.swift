import StateStore
import StateStoreTesting
import Testing

@testable import StatusLineFeature

private struct Refused: Error {}

@MainActor
@Suite("The status line feature, alone")
struct StatusLineFeatureTests {
  @Test("ShowStatus replaces the message and ClearStatus empties the line")
  func showAndClear() async {
    let store = TestStore(
      initialState: StatusLineState(), dependencies: StatusLineDependencies { _ in "" })
    await store.send(ShowStatus("one")) { $0.message = "one" }
    await store.send(ShowStatus("two")) { $0.message = "two" }
    await store.send(ClearStatus()) { $0.message = nil }
  }

  @Test("ReportError shows the error in the words the dependencies give")
  func reportsInTheAppsWords() async {
    let store = TestStore(
      initialState: StatusLineState(),
      dependencies: StatusLineDependencies { error in "refused: \(type(of: error))" })
    await store.send(ReportError(Refused()))
    await store.receive(ShowStatus("refused: Refused")) { $0.message = "refused: Refused" }
    await store.finish()
  }
}
