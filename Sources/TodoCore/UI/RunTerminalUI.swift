/// Runs `todo-cli ui` on `environment`'s store and returns the exit status.
///
/// A placeholder until the terminal UI lands: it says so and fails.
@MainActor
public func runTerminalUI(environment: TodoEnvironment, console: Console) async -> Int32 {
  console.error("todo-cli ui: not available yet\n")
  return 1
}
