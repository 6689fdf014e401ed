import Foundation
import Testing

@Suite("todo-cli shrink: a recorded session becomes the smallest failing test")
struct ShrinkCommandTests {
  /// Records a session of a dozen runs into `session.jsonl` and returns its path.
  static func record(_ cli: CLIHarness) throws -> String {
    let log = cli.directory.appendingPathComponent("session.jsonl").path
    let commands: [[String]] = [
      ["add", "Buy milk"], ["add", "Call mom"], ["add", "Write the report"], ["done", "1"],
      ["edit", "2", "Call dad"], ["done", "2"], ["add", "Walk"], ["remove", "3"], ["done", "4"],
      ["reopen", "1"], ["add", "Read"], ["done", "5"],
    ]
    for command in commands {
      let result = try cli.run(arguments: ["--store", cli.store, "--record", log] + command)
      #expect(result.status == 0, "\(command): \(result.error)")
    }
    return log
  }

  @Test("--expect prints a test of the few steps that break the value, and says how many")
  func expectPrintsATest() throws {
    let cli = try CLIHarness()
    let log = try Self.record(cli)
    let result = try cli.run(arguments: ["shrink", log, "--expect", "/todos[id=2]/done=false"])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.error.contains("shrank 12 entries to 2 steps"))
    #expect(result.output.contains("@testable import TodoCore"))
    #expect(result.output.contains("@Test func shrunkSession() async throws {"))
    #expect(
      result.output.contains(##"decoded(AddTodo.self, json: #"{"id":2,"title":"Call mom"}"#)"##))
    #expect(result.output.contains(##"decoded(SetDone.self, json: #"{"done":true,"id":2}"#)"##))
    #expect(result.output.components(separatedBy: "store.send(").count - 1 == 2)
  }

  @Test("--output writes the same test atomically, over a test written before")
  func outputWritesTheFile() throws {
    let cli = try CLIHarness()
    let log = try Self.record(cli)
    let output = cli.directory.appendingPathComponent("ShrunkTest.swift").path
    let printed = try cli.run(arguments: ["shrink", log, "--expect", "/todos/0/done=true"])
    for _ in 0..<2 {
      let written = try cli.run(
        arguments: ["shrink", log, "--expect", "/todos/0/done=true", "--output", output])
      #expect(written.status == 0, "\(written.error)")
      #expect(written.output.isEmpty)
      #expect(written.error.contains("the test is in \(output)"))
      #expect(try String(contentsOfFile: output, encoding: .utf8) == printed.output)
    }
  }

  @Test("bad input names what is wrong, exits non-zero, and writes nothing")
  func badInput() throws {
    let cli = try CLIHarness()
    let log = try Self.record(cli)
    let logBytes = try Data(contentsOf: URL(fileURLWithPath: log))
    let output = cli.directory.appendingPathComponent("out.swift").path
    func shrink(_ arguments: String...) throws -> CLIHarness.Result {
      try cli.run(arguments: ["shrink"] + arguments)
    }
    let missing = try shrink("nowhere.jsonl", "--diverges")
    #expect(missing.status == 1)
    #expect(missing.error.contains("cannot read nowhere.jsonl"))

    let damaged = cli.directory.appendingPathComponent("damaged.jsonl").path
    var bytes = logBytes
    bytes.append(Data("{\"seq\":99,\"type\":\"Nope\",\"payload\":{}}\n".utf8))
    try bytes.write(to: URL(fileURLWithPath: damaged))
    let bad = try shrink(damaged, "--expect", "/todos/0/done=true", "--output", output)
    #expect(bad.status == 1)
    #expect(bad.error.contains("cannot shrink \(damaged)") && bad.error.contains("line"))
    #expect(!FileManager.default.fileExists(atPath: output))

    let pointer = try shrink(log, "--expect", "todos/0/done=true")
    #expect(pointer.status == 2)
    #expect(pointer.error.contains("'todos/0/done' is not a path"))
    let value = try shrink(log, "--expect", "/todos/0/title=milk")
    #expect(value.status == 2)
    #expect(value.error.contains("'milk' after '=' is not a JSON value"))
    let noEquals = try shrink(log, "--expect", "/todos/0/done")
    #expect(noEquals.status == 2)
    #expect(noEquals.error.contains("has no '='"))
    #expect(try shrink(log).status == 2)
    #expect(try shrink(log, "--diverges", "--expect", "/todos/0/done=true").status == 2)

    let passes = try shrink(log, "--expect", "/todos[id=1]/done=false")
    #expect(passes.status == 1)
    #expect(passes.error.contains("the whole session passes the check"))

    let overLog = try shrink(log, "--expect", "/todos/0/done=true", "--output", log)
    #expect(overLog.status == 1)
    #expect(overLog.error.contains("is the log being shrunk: not written over"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == logBytes)

    let intoDirectory = try shrink(
      log, "--expect", "/todos/0/done=true", "--output", cli.directory.path)
    #expect(intoDirectory.status == 1)
    #expect(intoDirectory.error.contains("is a directory"))
  }

  @Test("an existing --output that cannot be read is not written over")
  func unreadableOutputIsKept() throws {
    // Root reads any file: there, no file is unreadable.
    guard getuid() != 0 else { return }
    let cli = try CLIHarness()
    let log = try Self.record(cli)
    let output = cli.directory.appendingPathComponent("secret.swift").path
    try Data("mine".utf8).write(to: URL(fileURLWithPath: output))
    try FileManager.default.setAttributes([.posixPermissions: 0o200], ofItemAtPath: output)
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: output)
    }
    let result = try cli.run(
      arguments: ["shrink", log, "--expect", "/todos/0/done=true", "--output", output])
    #expect(result.status == 1)
    #expect(result.error.contains("exists and cannot be read: not written over"))
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: output)
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "mine")
  }
}
