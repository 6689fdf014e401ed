import TerminalKit

/// Runs one `todo-cli` invocation: parses it, runs the command on the store, prints the result
/// and returns the exit status.
///
/// The status alone tells a script what happened, even when no message could be written (see
/// ``ExitCode``): 0 done, 1 nothing changed, 2 usage error, 3 saved but its output or
/// `--record` entry lost, 4 cannot tell whether the change was saved. Results go to standard
/// output; messages, prefixed with `todo-cli:`, to standard error, as far as they can be
/// written.
@MainActor
package enum TodoCommandRunner {
  /// Runs `arguments` (without the program name) with the process environment `variables`.
  package static func run(
    arguments: [String], variables: [String: String], console: Console = .standard
  ) async -> Int32 {
    let invocation: Invocation
    let environment: TodoEnvironment
    do {
      invocation = try CommandLineParser.parse(arguments)
      // Help, the version and `shrink` read no store: they run where none can be found.
      if let status = runWithoutStore(invocation.command, console: console) {
        return status.rawValue
      }
      environment = try TodoEnvironment(
        storeDirectory: invocation.storeDirectory, recordPath: invocation.recordPath,
        variables: variables)
    } catch {
      console.error("todo-cli: \(error)\n")
      return ExitCode.usageError.rawValue
    }
    return await run(invocation.command, in: environment, console: console)
  }

  /// What a command did: the text it prints, and whether it saved a change.
  private struct Outcome {
    var output: String?
    var saved = false
  }

  /// Runs `command` on `environment`'s store and returns its exit status: an ``ExitCode``,
  /// or for `ui` the terminal UI's own.
  static func run(
    _ command: Command, in environment: TodoEnvironment, console: Console
  ) async -> Int32 {
    if case .ui = command {
      return await runTerminalUI(environment: environment, console: console)
    }
    return await execute(command, in: environment, console: console).rawValue
  }

  /// Runs `command`, which is not `ui`, on `environment`'s store.
  private static func execute(
    _ command: Command, in environment: TodoEnvironment, console: Console
  ) async -> ExitCode {
    if let status = runWithoutStore(command, console: console) { return status }
    if let storage = environment.storage as? JournaledTodoStorage {
      storage.announceLockWait = { directory in
        console.error("todo-cli: waiting for another todo-cli using \(directory) ...\n")
      }
    }
    let status = await execute(command, on: environment, console: console)
    // Every change was durable when its effect returned; closing releases the directory.
    await environment.storage.close()
    return status
  }

  /// Runs `command` if it reads no store (help, the version, `shrink`), and returns its exit
  /// status; `nil` for a command that needs the store.
  private static func runWithoutStore(_ command: Command, console: Console) -> ExitCode? {
    switch command {
    case .help(let name):
      return finish(
        Outcome(output: name.flatMap(CommandHelp.command) ?? CommandHelp.program),
        recording: nil, console: console)
    case .version:
      return finish(
        Outcome(output: "todo-cli \(CommandHelp.version)\n"), recording: nil, console: console)
    case .shrink(let path, let check, let output):
      // Reads the log alone: the store is neither opened nor changed.
      do throws(SessionShrink.Failure) {
        let (source, summary) = try SessionShrink.shrink(contentsOf: path, check: check)
        guard let output else {
          let status = finish(Outcome(output: source), recording: nil, console: console)
          if status == .done { console.error("todo-cli: \(summary)\n") }
          return status
        }
        try SessionShrink.write(source, to: output, log: path)
        console.error("todo-cli: \(summary); the test is in \(output)\n")
        return .done
      } catch {
        console.error("todo-cli: \(error)\n")
        return .unchanged
      }
    default:
      return nil
    }
  }

  /// Runs `command`, which reads or changes the store, on `environment`'s store.
  private static func execute(
    _ command: Command, on environment: TodoEnvironment, console: Console
  ) async -> ExitCode {
    let store = environment.makeStore()
    var recording: SessionRecording?
    do {
      if environment.recordPath != nil {
        // Loaded before recording starts, so that the log holds the changes, not the load.
        try await store.dispatch(LoadTodos())
      }
      recording = try SessionRecording.start(for: store, at: environment.recordPath)
      let outcome = try await perform(
        command, on: store, clock: environment.clock, forTerminal: console.isTerminal)
      return finish(outcome, recording: recording, console: console)
    } catch {
      recording?.stop()
      console.error("todo-cli: \(ExitCode.message(for: error))\n")
      return ExitCode.failure(error)
    }
  }

  /// Writes the outcome's output and finishes the recording; when either fails, the status and
  /// the message say whether its change was saved.
  private static func finish(
    _ outcome: Outcome, recording: SessionRecording?, console: Console
  ) -> ExitCode {
    var problems: [String] = []
    if let output = outcome.output {
      do {
        try console.checkedOutput(output)
      } catch {
        problems.append("its output could not be written (\(error))")
      }
    }
    if let recording {
      do {
        try recording.finish()
      } catch {
        problems.append("recording it failed (\(error))")
      }
    }
    let status = ExitCode.finished(saved: outcome.saved, outputLost: !problems.isEmpty)
    guard status != .done else { return status }
    let what = problems.joined(separator: ", and ")
    if let advice = status.advice {
      console.error("todo-cli: \(what). \(advice)\n")
    } else {
      console.error("todo-cli: the command failed: \(what). Nothing was changed.\n")
    }
    return status
  }

  /// Runs `command`; with `forTerminal`, control characters in the titles it prints are escaped.
  private static func perform(
    _ command: Command, on store: TodoStore, clock: TodoClock, forTerminal: Bool
  ) async throws -> Outcome {
    switch command {
    case .add(let title, let tags, let due, let priority):
      let add = AddTodo(
        title: title, tags: tags, due: try due.map { try resolve($0, clock: clock) },
        priority: priority)
      let entry = try await store.dispatch(PerformChange(add))
      var outcome = Outcome(saved: entry != nil)
      if let add = entry?.change.change as? AddTodo, let id = add.id {
        outcome.output = "\(id)\n"
      }
      return outcome
    case .list(let filter, let json, let query):
      try await store.dispatch(LoadTodos())
      let today = clock.today
      var selection = TodoSelection(
        filter: filter, tags: query.tags, search: query.search ?? "", sort: query.sort)
      let bounds = [
        query.overdue ? today : nil, try query.dueBefore.map { try resolve($0, clock: clock) },
      ]
      selection.dueBefore = bounds.compactMap { $0 }.min()
      return Outcome(
        output: TodoFormatter.list(
          store.state, selection: selection, json: json, today: today, forTerminal: forTerminal))
    case .tag(let id, let tags):
      return try await change(TagTodo(id: id, tags: tags), on: store)
    case .untag(let id, let tags):
      return try await change(UntagTodo(id: id, tags: tags), on: store)
    case .due(let id, let date):
      return try await change(
        SetDue(id: id, due: try date.map { try resolve($0, clock: clock) }), on: store)
    case .priority(let id, let priority):
      return try await change(SetPriority(id: id, priority: priority), on: store)
    case .setDone(let id, let done):
      return try await change(SetDone(id: id, done: done), on: store)
    case .edit(let id, let title):
      return try await change(EditTitle(id: id, title: title), on: store)
    case .remove(let id):
      return try await change(RemoveTodo(id: id), on: store)
    case .clear:
      return try await change(ClearDone(), on: store)
    case .undo:
      let result = try await store.dispatch(UndoLastChange())
      let summary = result.undone.change.change.summary
      return Outcome(
        output: "undid \(result.undone.seq): "
          + (forTerminal ? TerminalSafeText.escaped(summary) : summary) + "\n",
        saved: true)
    case .history(let limit, let json):
      let entries = try await store.dispatch(LoadHistory())
      let newest = entries.suffix(limit ?? entries.count)
      return Outcome(
        output: json
          ? TodoFormatter.historyJSON(newest)
          : TodoFormatter.history(newest, forTerminal: forTerminal))
    case .replay(let path, let json):
      let state = try SessionReplay.replay(contentsOf: path)
      return Outcome(
        output: TodoFormatter.list(
          state, selection: TodoSelection(), json: json, today: clock.today,
          forTerminal: forTerminal))
    case .help, .version, .ui, .shrink:
      return Outcome()
    }
  }

  /// The calendar date `argument` names today.
  ///
  /// - Throws: ``UsageError`` when it falls after 9999-12-31.
  private static func resolve(_ argument: DateArgument, clock: TodoClock) throws(UsageError)
    -> CalendarDate
  {
    guard let date = argument.resolved(today: clock.today) else {
      throw UsageError(
        "'\(argument)' is past \(CalendarDate.latest), the last date there is")
    }
    return date
  }

  private static func change(_ change: some TodoChange, on store: TodoStore) async throws
    -> Outcome
  {
    Outcome(saved: try await store.dispatch(PerformChange(change)) != nil)
  }
}
