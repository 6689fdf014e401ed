import ActionLog
import StateStore
import StateStoreTesting

/// A small feature to shrink sessions of: chores, each open or done, with a bug that can be
/// planted: renaming a done chore reopens it.
struct Chore: Identifiable, Codable, Hashable, Sendable {
  var id: Int
  var title: String
  var done = false
}

/// The chores, in the order they were added.
struct ChoresState: State, Codable, Hashable {
  var chores = TrackedArray<Chore>()
}

/// Whether the planted bug is in the code: off, the code is fixed.
enum PlantedBug {
  @TaskLocal static var isPlanted = false
}

/// Adds a chore; its title shrinks.
struct AddChore: StateUpdater, Codable, ShrinkableUpdater {
  var id: Int
  var title: String

  func updateState(_ state: inout ChoresState) {
    state.chores.append(Chore(id: id, title: title))
  }

  var smallerCandidates: [AddChore] {
    title.isEmpty ? [] : [AddChore(id: id, title: ""), AddChore(id: id, title: "a")]
  }
}

/// Marks a chore done or open.
struct SetChoreDone: StateUpdater, Codable {
  var id: Int
  var done: Bool

  func updateState(_ state: inout ChoresState) {
    state.chores[id: id]?.done = done
  }
}

/// Renames a chore; with the planted bug, a done chore is reopened too.
struct RenameChore: StateUpdater, Codable, ShrinkableUpdater {
  var id: Int
  var title: String

  func updateState(_ state: inout ChoresState) {
    state.chores[id: id]?.title = title
    if PlantedBug.isPlanted { state.chores[id: id]?.done = false }
  }

  var smallerCandidates: [RenameChore] {
    title.isEmpty ? [] : [RenameChore(id: id, title: "")]
  }
}

/// Removes a chore.
struct RemoveChore: StateUpdater, Codable {
  var id: Int

  func updateState(_ state: inout ChoresState) {
    state.chores[id: id] = nil
  }
}

extension ActionLogRegistry<ChoresState> {
  /// Every updater of the chores feature.
  static func chores() -> ActionLogRegistry<ChoresState> {
    ActionLogRegistry<ChoresState>()
      .register(AddChore.self)
      .register(SetChoreDone.self)
      .register(RenameChore.self)
      .register(RemoveChore.self)
  }
}
