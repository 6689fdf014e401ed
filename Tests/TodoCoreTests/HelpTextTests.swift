import Testing

@testable import TodoCore

/// Pins the help texts: a change to them shows up here, on purpose.
@Suite("Help output")
struct HelpTextTests {
  @Test("The program's help")
  func program() {
    #expect(
      CommandHelp.program == """
        todo-cli 0.1.0: a todo list that never loses a todo

        Usage: todo-cli [--store <dir>] [--record <file>] <command> [<arguments>]

        Commands:
          add <title>        Add an open todo and print its id
          list               List the todos (--all, --done, --open, --json)
          done <id>          Mark a todo done
          reopen <id>        Mark a done todo open again
          edit <id> <title>  Give a todo a new title
          remove <id>        Remove a todo
          clear              Remove every done todo
          undo               Revert the last change; repeat to go further back
          history            Show the recorded changes, newest last
          replay <log>       Replay an action log onto an empty list and print it (--json)
          ui                 Open the interactive terminal interface
          help [<command>]   Show help for todo-cli or a command

        Options:
          --store <dir>    Where the todos live. Default: $TODO_CLI_HOME, else
                           $XDG_DATA_HOME/todo-cli, else ~/.local/share/todo-cli
          --record <file>  Append the changes this run makes to <file>, an action log
          -h, --help       Show help
          --version        Show the version

        Exit status: 0 on success, 1 on failure (such as an unknown id or a damaged
        store), 2 on a usage error. Messages go to standard error.
        Run 'todo-cli <command> --help' for a command's details.

        """)
  }

  @Test("A command's help, with its options")
  func list() {
    #expect(
      CommandHelp.command("list") == """
        Usage: todo-cli [--store <dir>] [--record <file>] list [--all | --done | --open] [--json]

        List the todos (--all, --done, --open, --json).

        Each line shows the id, [x] for done or [ ] for open, and the title.
        With --json, prints one JSON array of {"id", "title", "done"} objects.

        Options:
          --all   Open and done todos (the default)
          --done  Only the done todos
          --open  Only the open todos
          --json  Print JSON instead of text

        """)
  }

  @Test("A command's help without options")
  func add() {
    #expect(
      CommandHelp.command("add") == """
        Usage: todo-cli [--store <dir>] [--record <file>] add <title>

        Add an open todo and print its id.

        The title is any non-empty text, emoji and right-to-left scripts included.
        Several words are joined with spaces. Put '--' before a title that starts
        with a dash: todo-cli add -- "-20% on shoes"

        """)
  }

  @Test("Every command has help, and unknown names have none")
  func everyCommand() {
    for name in [
      "add", "list", "done", "reopen", "edit", "remove", "clear", "undo", "history", "replay",
      "ui", "help",
    ] {
      #expect(CommandHelp.command(name)?.hasPrefix("Usage: todo-cli") == true, "\(name)")
    }
    #expect(CommandHelp.command("bogus") == nil)
  }
}
