import StateStoreUI
import Synchronization

/// A repository browser: a list of repos, the favourites that its rows star, and a counter that
/// nothing reads.
struct Repo: Identifiable, Equatable, Sendable {
  var id: Int
  var name: String
  /// Shown by no row: a change of it changes the element but not the row's view model.
  var watchers = 0
}

struct BrowserState: State, Equatable {
  var repos = TrackedArray((0..<5).map { Repo(id: $0, name: "repo\($0)") })
  var favourites: Set<Int> = [1]
  var unrelated = 0
}

struct RenameRepo: StateUpdater {
  let id: Int
  let name: String
  func updateState(_ state: inout BrowserState) { state.repos[id: id]?.name = name }
}

struct Watch: StateUpdater {
  let id: Int
  func updateState(_ state: inout BrowserState) { state.repos[id: id]?.watchers += 1 }
}

struct ToggleFavourite: StateUpdater {
  let id: Int
  func updateState(_ state: inout BrowserState) {
    if state.favourites.remove(id) == nil { state.favourites.insert(id) }
  }
}

/// Renames repo `id` and toggles its favourite in one updater.
struct RenameAndFavourite: StateUpdater {
  let id: Int
  let name: String
  func updateState(_ state: inout BrowserState) {
    RenameRepo(id: id, name: name).updateState(&state)
    ToggleFavourite(id: id).updateState(&state)
  }
}

struct RemoveRepo: StateUpdater {
  let id: Int
  func updateState(_ state: inout BrowserState) { _ = state.repos.remove(id: id) }
}

struct AddRepo: StateUpdater {
  let repo: Repo
  func updateState(_ state: inout BrowserState) { _ = state.repos.append(repo) }
}

struct BumpUnrelated: StateUpdater {
  func updateState(_ state: inout BrowserState) { state.unrelated += 1 }
}

typealias BrowserStore = Store<BrowserState, Void>

/// Counts evaluations by key, so a test can tell which rows were evaluated.
let rowEvaluations = Mutex<[String: Int]>([:])

/// A row of the browser: the repo's name, starred when it is a favourite.
///
/// `Tag` gives each test its own type, so that its evaluation counts and its store-wide shared
/// evaluation are its own even when tests run in parallel.
struct RepoRow<Tag>: RowViewModel {
  let id: Int
  let line: String

  static func shared(in state: BrowserState) -> Set<Int> {
    rowEvaluations.withLock { $0["\(Tag.self) shared", default: 0] += 1 }
    return state.favourites
  }

  init(element repo: Repo, shared favourites: Set<Int>) {
    rowEvaluations.withLock { $0["\(Tag.self) \(repo.id)", default: 0] += 1 }
    id = repo.id
    line = (favourites.contains(repo.id) ? "★ " : "  ") + repo.name
  }

  init(id: Int, line: String) {
    self.id = id
    self.line = line
  }

  /// The evaluations of each row of this type, and of the shared slice, since the last reset.
  static func evaluations() -> [String: Int] {
    rowEvaluations.withLock { counts in
      counts.filter { $0.key.hasPrefix("\(Tag.self) ") }.reduce(into: [:]) { result, entry in
        result[String(entry.key.dropFirst("\(Tag.self) ".count))] = entry.value
      }
    }
  }

  static func resetEvaluations() {
    rowEvaluations.withLock { counts in
      counts = counts.filter { !$0.key.hasPrefix("\(Tag.self) ") }
    }
  }
}

/// A row view that records every update as `(oldModel, model)` lines.
@MainActor
final class RepoRowView<Tag>: ModellableRowView {
  var model: RepoRow<Tag>?
  private(set) var updates: [String] = []

  func update(oldModel: RepoRow<Tag>?) {
    updates.append("\(oldModel?.line ?? "nil") → \(model?.line ?? "nil")")
  }
}

/// The detail screen's view model: built from the state and the id of the repo the screen
/// shows, which the screen gives, not the app state.
struct RepoDetail: ViewModelWithLocalState {
  let title: String
  let isFavourite: Bool

  init?(state: BrowserState, localState id: Int) {
    guard let repo = state.repos[id: id] else { return nil }
    title = repo.name
    isFavourite = state.favourites.contains(id)
  }
}

@MainActor
final class RepoDetailView: ModellableViewWithLocalState {
  var model: RepoDetail?
  private(set) var updates: [String] = []
  var didTapFavourite: () -> Void = {}

  func update(oldModel: RepoDetail?) {
    updates.append("\(Self.describe(oldModel)) → \(Self.describe(model))")
  }

  static func describe(_ model: RepoDetail?) -> String {
    guard let model else { return "nil" }
    return model.title + (model.isFavourite ? " ★" : "")
  }
}
