/// Runs one `todo-cli` invocation: parses it, runs the command on the store, prints the result
/// and returns the exit status.
///
/// Exit status 0 is success, 1 a failure (an unknown id, a damaged store, an unreadable log),
/// 2 a usage error. Results go to standard output; messages, prefixed with `todo-cli:`, to
/// standard error.
@MainActor
public enum TodoCommandRunner {
  /// The exit status of a successful run.
  public static let success: Int32 = 0
  /// The exit status of a command that could not be done.
  public static let failure: Int32 = 1
  /// The exit status of a command line that could not be understood.
  public static let usageError: Int32 = 2

  /// Runs `arguments` (without the program name) with the process environment `variables`.
  public static func run(
    arguments: [String], variables: [String: String], console: Console = .standard
  ) async -> Int32 {
    let invocation: Invocation
    let environment: TodoEnvironment
    do {
      invocation = try CommandLineParser.parse(arguments)
      environment = try TodoEnvironment(
        storeDirectory: invocation.storeDirectory, recordPath: invocation.recordPath,
        variables: variables)
    } catch {
      console.error("todo-cli: \(error)\n")
      return usageError
    }
    return await run(invocation.command, in: environment, console: console)
  }

  /// Runs `command` on `environment`'s store.
  public static func run(
    _ command: Command, in environment: TodoEnvironment, console: Console
  ) async -> Int32 {
    switch command {
    case .help(let name):
      console.output(name.flatMap(CommandHelp.command) ?? CommandHelp.program)
      return success
    case .version:
      console.output("todo-cli \(CommandHelp.version)\n")
      return success
    case .ui:
      return await runTerminalUI(environment: environment, console: console)
    default:
      break
    }
    let store = environment.makeStore()
    do {
      if environment.recordPath != nil {
        // Loaded before recording starts, so that the log holds the changes, not the load.
        try await store.dispatch(LoadTodos())
      }
      let recording = try SessionRecording.start(for: store, at: environment.recordPath)
      defer { recording?.stop() }
      try await perform(command, on: store, console: console)
      try recording?.finish()
      return success
    } catch let error as UsageError {
      console.error("todo-cli: \(error)\n")
      return usageError
    } catch {
      console.error("todo-cli: \(error)\n")
      return failure
    }
  }

  private static func perform(_ command: Command, on store: TodoStore, console: Console)
    async throws
  {
    switch command {
    case .add(let title):
      let entry = try await store.dispatch(PerformChange(AddTodo(title: title)))
      if case .addTodo(let add) = entry?.change, let id = add.id {
        console.output("\(id)\n")
      }
    case .list(let filter, let json):
      try await store.dispatch(LoadTodos())
      console.output(TodoFormatter.list(store.state, filter: filter, json: json))
    case .setDone(let id, let done):
      try await store.dispatch(PerformChange(SetDone(id: id, done: done)))
    case .edit(let id, let title):
      try await store.dispatch(PerformChange(EditTitle(id: id, title: title)))
    case .remove(let id):
      try await store.dispatch(PerformChange(RemoveTodo(id: id)))
    case .clear:
      try await store.dispatch(PerformChange(ClearDone()))
    case .undo:
      let result = try await store.dispatch(UndoLastChange())
      console.output("undid \(result.undone.seq): \(result.undone.change.change.summary)\n")
    case .history:
      console.output(TodoFormatter.history(try await store.dispatch(LoadHistory())))
    case .replay(let path, let json):
      let state = try SessionReplay.replay(contentsOf: path)
      console.output(TodoFormatter.list(state, filter: .all, json: json))
    case .help, .version, .ui:
      break
    }
  }
}
