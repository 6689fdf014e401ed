import Foundation
import StateStoreUI
import Synchronization

struct Todo: Identifiable, Equatable, Sendable {
  var id: Int
  var title: String
  var done = false
}

/// A small app: a title, a counter that no view model reads, and a list of todos.
struct AppState: State, Equatable {
  var title = "Inbox"
  var unrelated = 0
  var todos = TrackedArray((0..<5).map { Todo(id: $0, title: "todo \($0)") })
}

struct SetTitle: StateUpdater {
  let title: String
  func updateState(_ state: inout AppState) { state.title = title }
}

/// Changes the state without changing any view model.
struct Bump: StateUpdater {
  func updateState(_ state: inout AppState) { state.unrelated += 1 }
}

struct Toggle: StateUpdater {
  let id: Int
  func updateState(_ state: inout AppState) { state.todos[id: id]?.done.toggle() }
}

struct RemoveTodo: StateUpdater {
  let id: Int
  func updateState(_ state: inout AppState) { state.todos.remove(id: id) }
}

typealias AppStore = Store<AppState, Void>

@MainActor
func makeStore() -> AppStore {
  AppStore(dependencies: ())
}

struct TitleViewModel: ViewModelWithState {
  let text: String
  init(text: String) { self.text = text }
  init(state: AppState) { text = state.title }
}

/// Counts how often any store evaluates it, to prove that evaluations are shared and stop.
///
/// Each test that counts uses its own view-model type, so parallel tests never share a count.
struct SharedTitleViewModel: ViewModelWithState {
  static let evaluations = Mutex(0)
  let text: String
  init(state: AppState) {
    Self.evaluations.withLock { $0 += 1 }
    text = state.title
  }
}

/// Counts its evaluations, for the test that releases an observed model.
struct ReleasedTitleViewModel: ViewModelWithState {
  static let evaluations = Mutex(0)
  let text: String
  init(state: AppState) {
    Self.evaluations.withLock { $0 += 1 }
    text = state.title
  }
}

/// `nil` when the title is empty: nothing to show.
struct OptionalTitleViewModel: ViewModelWithState {
  let text: String
  init?(state: AppState) {
    guard !state.title.isEmpty else { return nil }
    text = state.title
  }
}

/// A view that records every update as `(oldModel, model)`.
@MainActor
final class TitleView: ModellableView {
  var model: TitleViewModel?
  private(set) var updates: [Update] = []
  /// An interaction, wired by a controller.
  var didTapRename: (String) -> Void = { _ in }

  struct Update: Equatable {
    let old: String?
    let new: String?
  }

  func update(oldModel: TitleViewModel?) {
    updates.append(Update(old: oldModel?.text, new: model?.text))
  }
}

@MainActor
final class OptionalTitleView: ModellableView {
  var model: OptionalTitleViewModel?
  private(set) var updates: [TitleView.Update] = []

  func update(oldModel: OptionalTitleViewModel?) {
    updates.append(TitleView.Update(old: oldModel?.text, new: model?.text))
  }
}

@MainActor
final class SharedTitleView: ModellableView {
  var model: SharedTitleViewModel?
  private(set) var updateCount = 0

  func update(oldModel: SharedTitleViewModel?) {
    updateCount += 1
  }
}

@MainActor
final class RowView: ModellableRowView {
  var model: Todo?
  private(set) var updates: [Update] = []

  struct Update: Equatable {
    let old: Todo?
    let new: Todo?
  }

  func update(oldModel: Todo?) {
    updates.append(Update(old: oldModel, new: model))
  }
}

/// A search screen's model: the title from the store, the query from the screen.
struct SearchViewModel: ViewModelWithLocalState {
  let title: String
  /// The query, trimmed: typing a trailing space does not change the model.
  let query: String
  init(state: AppState, localState: String) {
    title = state.title
    query = localState.trimmingCharacters(in: [" "])
  }
}

@MainActor
final class SearchView: ModellableViewWithLocalState {
  var model: SearchViewModel?
  private(set) var updates: [Update] = []
  var didType: (String) -> Void = { _ in }

  struct Update: Equatable {
    let old: SearchViewModel?
    let new: SearchViewModel?
  }

  func update(oldModel: SearchViewModel?) {
    updates.append(Update(old: oldModel, new: model))
  }
}

extension SearchViewModel {
  static func make(title: String, query: String) -> SearchViewModel {
    var state = AppState()
    state.title = title
    return SearchViewModel(state: state, localState: query)
  }
}

func update(_ old: String?, _ new: String?) -> TitleView.Update {
  TitleView.Update(old: old, new: new)
}

/// Counts its evaluations, for the test that shares one between observers and subscribers.
struct ObservedSharedViewModel: ViewModelWithState {
  static let evaluations = Mutex(0)
  let text: String
  init(state: AppState) {
    Self.evaluations.withLock { $0 += 1 }
    text = state.title
  }
}
