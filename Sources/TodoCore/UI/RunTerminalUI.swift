import TerminalKit

/// Runs `todo-cli ui`: the interactive terminal UI on the todos in `environment`'s store.
///
/// Checks that standard input and output are a terminal before anything else, loads the todos,
/// then hands the terminal to the UI until the user quits. Every change is journaled to
/// the store as it is made, so another `todo-cli` process sees it at once. The terminal is restored however the UI ends.
///
/// - Returns: The exit status: 0 after `q`, 2 when not run in a terminal, 1 when the store cannot
///   be read or the terminal cannot be set up, 3 when the changes were saved but their
///   `--record` log could not be written, 130 after Ctrl-C, 128 + n after signal n.
@MainActor
func runTerminalUI(environment: TodoEnvironment, console: Console) async -> Int32 {
  // The UI keeps the store open and hears what other processes store a few times a second.
  let storage: any TodoStorage =
    environment.storage is JournaledTodoStorage
    ? JournaledTodoStorage(
      directory: environment.storeDirectory, clock: environment.clock,
      pollInterval: .milliseconds(250))
    : environment.storage
  let status = await runTerminalUI(on: storage, environment: environment, console: console)
  await storage.close()
  return status
}

/// Runs the terminal UI on `storage`, as ``runTerminalUI(environment:console:)`` says.
@MainActor
private func runTerminalUI(
  on storage: any TodoStorage, environment: TodoEnvironment, console: Console
) async -> Int32 {
  let session: TerminalSession
  do {
    session = try TerminalSession()
  } catch {
    printError(console, error.description(advice: notATerminalAdvice))
    return error.exitCode
  }
  let state: AppState
  do {
    state = try await storage.load()
  } catch {
    printError(console, "\(error)")
    return ExitCode.unchanged.rawValue
  }
  let app = TodoTerminalApp(storage: storage, state: state, clock: environment.clock)
  let recording: SessionRecording?
  do {
    // Started after the load, like a command's, so that the log holds the UI's changes.
    recording = try SessionRecording.start(for: app.store, at: environment.recordPath)
  } catch {
    printError(console, "\(error)")
    return ExitCode.unchanged.rawValue
  }
  let status: Int32
  do {
    status = try await TerminalRunner(session: session).run(app)
  } catch {
    recording?.stop()
    printError(console, error.description(advice: notATerminalAdvice))
    return error.exitCode
  }
  do {
    try recording?.finish()
  } catch {
    let status = ExitCode.savedWithoutOutput
    printError(console, "recording the changes failed (\(error)). \(status.advice ?? "")")
    return status.rawValue
  }
  return status
}

/// What `todo-cli ui` says after "standard input is not a terminal".
private let notATerminalAdvice =
  "`todo-cli ui` needs an interactive terminal "
  + "(use `todo-cli list` and the other commands in scripts and pipes)"

private func printError(_ console: Console, _ message: String) {
  console.error("todo-cli ui: \(message)\n")
}
