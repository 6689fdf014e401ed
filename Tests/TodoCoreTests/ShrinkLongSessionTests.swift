import Foundation
import Testing

@testable import TodoCore

@MainActor
@Suite("todo-cli shrink on a session of a few hundred entries")
struct ShrinkLongSessionTests {
  /// Runs one `todo-cli` invocation in this process and returns its status.
  private func run(_ arguments: [String], console: RecordingConsole = RecordingConsole()) async
    -> Int32
  {
    await TodoCommandRunner.run(
      arguments: arguments, variables: ["TODO_CLI_NOW": "2026-03-10T12:00:00Z"],
      console: console.console)
  }

  @Test(
    "a 300-entry session whose last reopen breaks the value becomes, in one command, a test of 3 steps"
  )
  func shrinksAFewHundredEntriesToAFewSteps() async throws {
    let directory = try StoreDirectory()
    let store = directory.path + "/store"
    let log = directory.path + "/session.jsonl"
    var commands: [[String]] = []
    for day in 1...100 {
      commands.append(["add", "Chore \(day)"])
      commands.append(["done", "\(day)"])
      // Todo 42, done on its day, is opened again 30 days later: the report says it should
      // still be done.
      commands.append(day == 72 ? ["reopen", "42"] : ["edit", "\(day)", "Chore \(day), done"])
    }
    for command in commands {
      let status = await run(["--store", store, "--record", log] + command)
      #expect(status == 0, "\(command)")
    }
    let console = RecordingConsole()
    let status = await run(
      ["--store", store, "shrink", log, "--expect", "/todos[id=42]/done=true"], console: console)
    #expect(status == 0, "\(console.error)")
    #expect(console.error.contains("shrank 300 entries to 3 steps"), "\(console.error)")
    #expect(console.output.components(separatedBy: "store.send(").count - 1 == 3)
    #expect(console.output.contains(#"decoded(AddTodo.self, json: "#))
    // The reopen, last, is where the written test fails on this code.
    let lastSend = try #require(console.output.components(separatedBy: "store.send(").last)
    #expect(lastSend.hasPrefix(##"decoded(SetDone.self, json: #"{"done":false,"id":42}"#))"##))
  }
}
