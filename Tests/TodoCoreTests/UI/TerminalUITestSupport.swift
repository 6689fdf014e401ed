import TerminalKit
import Testing

@testable import TodoCore

/// A storage holding todos with the given titles, ids from 1, the first `doneCount` done.
func storage(titles: [String], doneCount: Int = 0) -> InMemoryTodoStorage {
  var changes: [AnyTodoChange] = []
  for (index, title) in titles.enumerated() {
    changes.append(.addTodo(AddTodo(id: index + 1, title: title)))
  }
  for id in 1...max(doneCount, 1) where id <= doneCount {
    changes.append(.setDone(SetDone(id: id, done: true)))
  }
  return InMemoryTodoStorage(changes: changes)
}

extension TerminalUIHarness {
  /// The line that shows the todo titled `title`, if any.
  func line(containing title: String) -> String? {
    lines.first { $0.contains(title) }
  }

  /// The bottom line: the keys of the screen in front.
  var bottomLine: String { lines.last ?? "" }

  /// The top line: the route as a breadcrumb.
  var topLine: String { lines.first ?? "" }
}
