import ActionLog
import StatePersistence
import StateStore

/// A state whose history shows in its value: `items` lists every `Append` in order, so a state
/// tells which prefix of a workload it holds.
struct Numbers: State, Codable, Equatable {
  var items: [Int] = []
  var settings = Settings()
}

struct Settings: State, Codable, Equatable {
  var theme = "light"
}

struct Append: StateUpdater, Codable {
  let value: Int

  func updateState(_ state: inout Numbers) {
    state.items.append(value)
  }
}

struct SetTheme: StateUpdater, Codable {
  let theme: String

  func updateState(_ state: inout Settings) {
    state.theme = theme
  }
}

/// An updater nobody registers.
struct Unregistered: StateUpdater, Codable {
  func updateState(_ state: inout Numbers) {
    state.items.append(-1)
  }
}

func numbersRegistry() -> ActionLogRegistry<Numbers> {
  let registry = ActionLogRegistry<Numbers>()
  registry.register(Append.self)
  registry.scope("settings", state: \.settings).register(SetTheme.self)
  return registry
}

/// The state after appending `1...count`.
func numbers(upTo count: Int) -> Numbers {
  Numbers(items: count > 0 ? Array(1...count) : [])
}

extension JournaledStore where S == Numbers, Dependencies == Void {
  /// Opens `/store` on `system`, with reports kept off standard error.
  static func openNumbers(
    on system: any SystemCalls, options: JournalOptions = JournalOptions()
  ) async throws(PersistenceError) -> JournaledStore<Numbers, Void> {
    let journaled = try await open(
      directory: "/store", dependencies: (), registry: numbersRegistry(), options: options,
      system: system)
    journaled.store.onUnhandledError = { _, _ in }
    return journaled
  }

  /// Reads `/store` on `system` without writing.
  static func readNumbers(on system: any SystemCalls, schemaVersion: Int = 1)
    async throws(PersistenceError) -> RecoveredState<Numbers>
  {
    try await read(
      directory: "/store", registry: numbersRegistry(), schemaVersion: schemaVersion,
      system: system)
  }
}

extension JournalOptions {
  /// Options for a store that reads other processes' entries only when told to
  /// (`catchUp()`), so that a test says when.
  static func readingByHand(snapshotInterval: Int = 1_000) -> JournalOptions {
    var options = JournalOptions(snapshotInterval: snapshotInterval)
    options.pollInterval = nil
    return options
  }
}
