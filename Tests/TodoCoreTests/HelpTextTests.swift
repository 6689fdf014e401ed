import Foundation
import TerminalKit
import Testing

@testable import TodoCore

/// Pins the help texts: a change to them shows up here, on purpose.
@Suite("Help output")
struct HelpTextTests {
  @Test("The program's help")
  func program() {
    #expect(
      CommandHelp.program == """
        todo-cli 0.2.0: a todo list that never loses a todo

        Usage: todo-cli [--store <dir>] [--record <file>] <command> [<arguments>]

        Commands:
          add <title>                         Add an open todo and print its id
          list                                List the todos (filters, --sort, --json)
          tag <id> <tag>...                   Give a todo tags
          untag <id> <tag>...                 Take tags off a todo
          due <id> <date>|none                Set or clear a todo's due date
          priority <id> high|medium|low|none  Set or clear a todo's priority
          done <id>                           Mark a todo done
          reopen <id>                         Mark a done todo open again
          edit <id> <title>                   Give a todo a new title
          remove <id>                         Remove a todo
          clear                               Remove every done todo
          undo                                Revert the last change; repeat to go further back
          history                             Show the recorded changes, newest last
          replay <log>                        Replay an action log onto an empty list and print it (--json)
          shrink <log>                        Shrink a recorded session to the smallest failing test
          ui                                  Open the interactive terminal interface
          help [<command>]                    Show help for todo-cli or a command

        Options:
          --store <dir>    Where the todos live. Default: $TODO_CLI_HOME, else
                           $XDG_DATA_HOME/todo-cli, else ~/.local/share/todo-cli
          --record <file>  Append the changes this run makes to <file>, an action log
          -h, --help       Show help
          --version        Show the version

        Exit status:
          0  done: any change is saved, and the output is written
          1  nothing changed: an unknown id, an unreadable store, a failing disk
          2  usage error: nothing was read or changed
          3  saved, but its output or --record entry was lost: do not retry
          4  cannot tell: the change is saved whole or not at all; check with list
        Messages go to standard error; the status holds even when they are lost.
        Run 'todo-cli <command> --help' for a command's details.

        """)
  }

  @Test("A command's help, with its options")
  func list() {
    #expect(
      CommandHelp.command("list") == """
        Usage: todo-cli [--store <dir>] [--record <file>] list [--all | --done | --open] [--tag <tag>]... [--overdue] [--due-before <date>] [--search <text>] [--sort id|due|priority|title] [--json]

        List the todos (filters, --sort, --json).

        Each line shows the id, [x] for done or [ ] for open, and the title, then the
        priority (!high), the due date (due:2026-03-01, marked overdue when it is past)
        and the tags (#work). With --json, prints one JSON array of {"id", "title",
        "done", "tags", "due", "priority"} objects. Filters combine: a todo must
        pass every one. --sort due puts undated todos last; ties go by id.
        A date is YYYY-MM-DD, today, tomorrow, +<n>d or +<n>w, in the local time zone.

        Options:
          --all                Open and done todos (the default)
          --done               Only the done todos
          --open               Only the open todos
          --tag <tag>          Only todos with this tag; repeat for all of several
          --overdue            Only todos due before today
          --due-before <date>  Only todos due before this date
          --search <text>      Only titles holding the text, whatever the case or accents
          --sort <key>         id, due, priority or title
          --json               Print JSON instead of text

        """)
  }

  @Test("A command's help without options")
  func add() {
    #expect(
      CommandHelp.command("edit") == """
        Usage: todo-cli [--store <dir>] [--record <file>] edit <id> <title>

        Give a todo a new title.

        Fails with exit status 1 if no todo has this id.

        """)
  }

  @Test("The manual's exit status table says what --help says, status by status")
  func manualStatusTable() throws {
    let manual = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Docs/CLI.md")
    let text = try String(contentsOf: manual, encoding: .utf8)
    for status in ExitCode.allCases {
      #expect(text.contains("| \(status.rawValue) | \(status.meaning) |"), "\(status)")
      #expect(CommandHelp.program.contains("  \(status.rawValue)  \(status.meaning)\n"))
    }
  }

  @Test("Every command has help, and unknown names have none")
  func everyCommand() {
    for name in [
      "add", "list", "tag", "untag", "due", "priority", "done", "reopen", "edit", "remove",
      "clear", "undo", "history", "replay", "shrink", "ui", "help",
    ] {
      #expect(CommandHelp.command(name)?.hasPrefix("Usage: todo-cli") == true, "\(name)")
    }
    #expect(CommandHelp.command("bogus") == nil)
  }
}
