import Foundation
import Testing

@Suite("The test todo-cli shrink writes type-checks against the app's module")
struct ShrunkTestTests {
  @Test("a recorded todo-cli session, shrunk, is a Swift Testing test that compiles")
  func writtenTestCompiles() async throws {
    let compiler = try SwiftCompiler.locate()
    let cli = compiler.modules.deletingLastPathComponent().appendingPathComponent("todo-cli")
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("ShrunkTestTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let store = scratch.appendingPathComponent("store").path
    let log = scratch.appendingPathComponent("session.jsonl").path
    let commands: [[String]] = [
      ["add", "Buy milk", "--tag", "errands", "--due", "2030-01-02", "--priority", "high"],
      ["add", "Call mom"], ["done", "1"], ["tag", "2", "family"], ["due", "2", "2030-02-03"],
      ["edit", "2", "Call dad"], ["done", "2"], ["priority", "2", "low"], ["remove", "1"],
      ["reopen", "2"],
    ]
    for command in commands {
      let status = try run(cli, ["--store", store, "--record", log] + command)
      #expect(status == 0, "\(command)")
    }
    let test = scratch.appendingPathComponent("ShrunkTest.swift")
    let status = try run(
      cli, ["shrink", log, "--expect", "/todos/0/done=true", "--output", test.path])
    #expect(status == 0)
    let source = try String(contentsOf: test, encoding: .utf8)
    #expect(source.contains("@testable import TodoCore"))
    let output = try await compiler.typecheck(test, scratch: scratch)
    #expect(output.status == 0, "\(source)\n\(output.diagnostics)")
  }

  private func run(_ executable: URL, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }
}
