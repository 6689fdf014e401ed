import StateStore
import Testing

/// Changes the root's rows in one of the ways that move, add or remove elements, or that put
/// back an older copy of the array.
private struct ReshapeRows: StateUpdater {
  let body: @Sendable (inout TrackedArray<Row>) -> Void
  func updateState(_ state: inout ShellState) { body(&state.rows) }
}

/// An element scope reads its element where it last found it while the array keeps its layout;
/// every change of layout must send it back to the look-up by id.
@MainActor
@Suite("Element scopes: reading the element where it was found")
struct ElementPlaceTests {
  @Test(
    "after every kind of change of layout, each element scope reads and changes its own element")
  func readsFollowEveryChangeOfLayout() {
    var initial = ShellState()
    for id in 0..<12 { initial.rows.append(Row(id: id, title: "row \(id)")) }
    let app = Store<ShellState, Void>(initialState: initial)
    var dropped = 0
    app.onUnhandledError = { _, _ in dropped += 1 }
    let ids = Array(0..<16)
    let scopes = ids.map { app.scope(state: \.rows, id: $0) }
    var random = TrackedArrayModelTests.SeededGenerator(state: 0x5EED)
    var saved = app.state.rows
    var nextID = 100
    for step in 0..<600 {
      let change: @Sendable (inout TrackedArray<Row>) -> Void
      switch random.next() % 9 {
      case 0:
        let id = Int(random.next() % 16)
        change = { _ = $0.remove(id: id) }
      case 1:
        let id = Int(random.next() % 16)
        change = { _ = $0.insert(Row(id: id, title: "again \(id)"), at: 0) }
      case 2:
        let id = Int(random.next() % 16)
        let position = Int(random.next() % 16)
        change = { $0.move(id: id, to: position) }
      case 3:
        change = { $0.sort { $0.title > $1.title } }
      case 4:
        // A change of identifier in place, re-indexed by `modify(at:)`.
        let newID = nextID
        nextID += 1
        change = { rows in
          guard !rows.isEmpty else { return }
          rows.modify(at: 0) { $0.id = newID }
        }
      case 5:
        // An older copy of the array, with an older layout, put back.
        let older = saved
        change = { $0 = older }
      case 6:
        saved = app.state.rows
        change = { _ in }
      default:
        let id = Int(random.next() % 16)
        change = { _ = $0.append(Row(id: id, title: "new \(id)")) }
      }
      app.dispatch(ReshapeRows(body: change))
      for (id, scope) in zip(ids, scopes) {
        let expected = app.state.rows[id: id]
        if let expected {
          #expect(scope.state == expected, "step \(step): scope \(id) read another element")
        }
        let droppedBefore = dropped
        let doneBefore = expected?.done
        scope.dispatch(ToggleRow())
        if let doneBefore {
          #expect(app.state.rows[id: id]?.done == !doneBefore, "step \(step): toggle of \(id)")
          #expect(dropped == droppedBefore)
        } else {
          #expect(dropped == droppedBefore + 1, "step \(step): \(id) is gone, yet not reported")
        }
      }
    }
  }
}
