import StatusLineFeature
import TitleEditorFeature
import TodoDetailFeature
import TodoListFeature

/// Everything the todo app knows: the todos, in the order they were added, the next id, and the
/// slices of the feature modules that the terminal UI mounts by scope.
///
/// The todos and `nextID` are what storage keeps and what the journal's changes act on; they
/// stay at the root so that every journal and `--record` log ever written replays unchanged.
/// The features' slices (``titleEditor``, ``statusLine``, ``list``,
/// ``detail``) live only while the UI runs: they are
/// neither stored nor encoded, and loading the stored todos leaves them as they are.
struct AppState: State, Hashable {
  /// The todos, in order.
  var todos: TrackedArray<Todo>
  /// The id the next added todo gets; ids are never reused, even after a todo is removed.
  var nextID: Int
  /// The title editor's slice: `app.store.scope(state: \.titleEditor, ...)`.
  var titleEditor = TitleEditorState()
  /// The status line's slice: `app.store.scope(state: \.statusLine, ...)`.
  var statusLine = StatusLineState()
  /// The list's filters and sort: `app.store.scope(state: \.list)`.
  var list = TodoListState()
  /// The detail screen's slice: `app.store.scope(state: \.detail, dependencies: \.detail)`.
  var detail = TodoDetailState()

  /// Creates an empty list whose first todo gets id 1.
  init() {
    todos = TrackedArray()
    nextID = 1
  }

  /// Creates a state holding `todos`, continuing ids from `nextID`.
  init(todos: TrackedArray<Todo>, nextID: Int) {
    self.todos = todos
    self.nextID = nextID
  }

  /// Whether the stored part, the todos and `nextID`, is the same in both states.
  ///
  /// - Complexity: O(todos).
  func hasSameTodos(as other: AppState) -> Bool {
    nextID == other.nextID && todos == other.todos
  }
}

/// `{"todos": [...], "nextID": n}`, as every store and log has it: the features' slices are not
/// part of it.
extension AppState: Codable {
  private enum CodingKeys: String, CodingKey {
    case todos, nextID
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      todos: try container.decode(TrackedArray<Todo>.self, forKey: .todos),
      nextID: try container.decode(Int.self, forKey: .nextID))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(todos, forKey: .todos)
    try container.encode(nextID, forKey: .nextID)
  }
}
