/// Where a `todo-cli` run keeps its data and what it records: the setup every command, and the
/// terminal UI, start from.
///
/// ```swift
/// let environment = try TodoEnvironment(storeDirectory: nil, variables: ProcessInfo.processInfo.environment)
/// let store = environment.makeStore()
/// try await store.dispatch(LoadTodos())
/// let entry = try await store.dispatch(PerformChange(AddTodo(title: "Buy milk")))
/// ```
struct TodoEnvironment: Sendable {
  var storeDirectory: String
  /// The storage the store's side effects use.
  var storage: any TodoStorage
  /// `--record <file>`: where this run appends the changes it dispatches, if anywhere.
  var recordPath: String?
  /// What time it is, and which day.
  var clock: TodoClock

  /// Creates an environment on `storage`, for tests and tools that bring their own.
  init(
    storeDirectory: String, storage: any TodoStorage, recordPath: String? = nil,
    clock: TodoClock = .system
  ) {
    self.storeDirectory = storeDirectory
    self.storage = storage
    self.recordPath = recordPath
    self.clock = clock
  }

  /// Creates the environment for the store in `storeDirectory`, or in the default directory
  /// that `variables` (the process environment) point to.
  ///
  /// - Throws: ``UsageError`` when no directory is given and `HOME` is not set either, or when
  ///   `TODO_CLI_NOW` is set to something other than an ISO 8601 time.
  @MainActor
  init(
    storeDirectory: String?, recordPath: String? = nil, variables: [String: String]
  ) throws(UsageError) {
    guard let directory = storeDirectory ?? Self.defaultStoreDirectory(variables: variables)
    else {
      throw UsageError(
        "no store directory: pass --store <dir>, or set TODO_CLI_HOME or HOME")
    }
    let clock = try TodoClock.from(variables: variables)
    self.init(
      storeDirectory: directory,
      storage: JournaledTodoStorage(directory: directory, clock: clock),
      recordPath: recordPath, clock: clock)
  }

  /// `$TODO_CLI_HOME`, else `$XDG_DATA_HOME/todo-cli`, else `~/.local/share/todo-cli`; empty
  /// variables count as unset.
  static func defaultStoreDirectory(variables: [String: String]) -> String? {
    func value(_ name: String) -> String? {
      guard let value = variables[name], !value.isEmpty else { return nil }
      return value
    }
    if let home = value("TODO_CLI_HOME") { return home }
    if let data = value("XDG_DATA_HOME") { return data + "/todo-cli" }
    if let home = value("HOME") { return home + "/.local/share/todo-cli" }
    return nil
  }

  /// A store on this environment's storage, with an empty state until ``LoadTodos`` runs.
  @MainActor
  func makeStore() -> TodoStore {
    TodoStore(
      initialState: AppState(), dependencies: TodoDependencies(storage: storage, clock: clock))
  }
}
