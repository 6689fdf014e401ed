import StateStoreUI
import Testing

@MainActor
@Test("a local-state screen on an element scope keeps its last model once its element is removed")
func localStateScreenOnARemovedElement() {
  let root = Store<ShelfState, Void>(
    initialState: ShelfState(books: [Book(id: 1, title: "Dune"), Book(id: 2, title: "Emma")]))
  // The controller holds its store weakly, as a screen does.
  let row = root.scope(state: \.books, id: 2)
  let controller = LocalStateScreenController(view: BookView(), store: row, localState: "")
  controller.appear()
  controller.localState = "!"
  root.dispatch(RemoveBook(id: 2))
  // Before, the controller rendered `S()`'s model here: a book the shelf never had.
  controller.localState = "?"
  #expect(controller.view.updates == ["nil → Emma", "Emma → Emma!"])
  #expect(row.stateIfAvailable == nil)
}

private struct Book: State, Identifiable, Equatable {
  var id = 0
  var title = ""
}

private struct ShelfState: State {
  var books = TrackedArray<Book>()
}

private struct RemoveBook: StateUpdater {
  let id: Int
  func updateState(_ state: inout ShelfState) { _ = state.books.remove(id: id) }
}

private struct BookModel: ViewModelWithLocalState {
  let text: String
  init?(state: Book, localState: String) { text = state.title + localState }
}

private final class BookView: ModellableViewWithLocalState {
  var model: BookModel?
  var updates: [String] = []
  func update(oldModel: BookModel?) {
    updates.append("\(oldModel?.text ?? "nil") → \(model?.text ?? "nil")")
  }
}
