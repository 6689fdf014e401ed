import StateStore

/// A feature's state, knowing nothing of the app.
struct ProfileState: State, Equatable {
  var name = ""
  var saved = false
  var avatar = AvatarState()
}

/// The state of a feature inside the profile feature, for scopes of scopes.
struct AvatarState: State, Equatable {
  var url = ""
}

struct RenameProfile: StateUpdater, Equatable, Codable {
  let name: String
  func updateState(_ state: inout ProfileState) { state.name = name }
}

struct SetAvatar: StateUpdater, Equatable, Codable {
  let url: String
  func updateState(_ state: inout AvatarState) { state.url = url }
}

/// Counts `ProfileTitle` evaluations; main-actor isolated because the store evaluates there.
@MainActor var profileTitleEvaluations = 0

struct ProfileTitle: ViewModelWithState {
  let text: String
  init?(state: ProfileState) {
    MainActor.assumeIsolated { profileTitleEvaluations += 1 }
    guard !state.name.isEmpty else { return nil }
    text = "Hello, \(state.name)"
  }
}

/// A feature's state that is not `Equatable`: only the byte-range skip applies to it.
struct PlainProfile: State {
  var name = ""
}

struct RenamePlain: StateUpdater {
  let name: String
  func updateState(_ state: inout PlainProfile) { state.name = name }
}

/// Counts `PlainTitle` evaluations.
@MainActor var plainTitleEvaluations = 0

struct PlainTitle: ViewModelWithState {
  let text: String
  init?(state: PlainProfile) {
    MainActor.assumeIsolated { plainTitleEvaluations += 1 }
    text = state.name
  }
}

/// Two features side by side whose states are not `Equatable`.
struct PlainShell: State {
  var counter = 0
  var first = PlainProfile()
  var second = PlainProfile()
}

struct BumpPlainCounter: StateUpdater {
  func updateState(_ state: inout PlainShell) { state.counter += 1 }
}

/// A row feature: the state of one element of a tracked array.
struct Row: State, Identifiable, Equatable, Codable {
  var id = 0
  var title = ""
  var done = false
}

struct ToggleRow: StateUpdater, Codable {
  func updateState(_ state: inout Row) { state.done.toggle() }
}

struct ShellState: State, Equatable {
  var counter = 0
  var profile = ProfileState()
  var other = ProfileState()
  var rows = TrackedArray<Row>()
}

struct BumpCounter: StateUpdater {
  func updateState(_ state: inout ShellState) { state.counter += 1 }
}

struct RemoveRow: StateUpdater {
  let id: Int
  func updateState(_ state: inout ShellState) { _ = state.rows.remove(id: id) }
}

/// A root whose feature slice has a `didSet`: a scope must write through the property, so that
/// the observer runs, rather than at the slice's bytes.
struct ObservedShellState: State {
  var profileWrites = 0
  var profile = ProfileState() {
    didSet { profileWrites += 1 }
  }
}
