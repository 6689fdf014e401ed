import Foundation

/// Runs `todo-cli ui`: the interactive terminal UI on the todos in `storage`.
///
/// Checks that standard input and output are a terminal before anything else, loads the todos,
/// then hands the terminal to the UI until the user quits. Every change is journaled to
/// `storage` as it is made. The terminal is restored however the UI ends.
///
/// - Returns: The exit status: 0 after `q`, 2 when not run in a terminal, 1 when the store cannot
///   be read or the terminal cannot be set up, 130 after Ctrl-C, 128 + n after signal n.
@MainActor
public func runTerminalUI(storage: any TodoStorage) async -> Int32 {
  let session: TerminalSession
  do {
    session = try TerminalSession()
  } catch {
    printError(error.description)
    return error.exitCode
  }
  let state: AppState
  do {
    state = try storage.load()
  } catch {
    printError("\(error)")
    return 1
  }
  let app = TodoTerminalApp(storage: storage, state: state)
  do {
    return try await TerminalRunner(session: session).run(app)
  } catch {
    printError(error.description)
    return error.exitCode
  }
}

private func printError(_ message: String) {
  FileHandle.standardError.write(Data("todo-cli ui: \(message)\n".utf8))
}
