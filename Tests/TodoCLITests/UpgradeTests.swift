import Foundation
import Testing

/// Stores written by todo-cli 0.1.0 (see Fixtures/README.md) keep working after the upgrade.
@Suite("A store written by todo-cli 0.1.0, read and changed by this one")
struct UpgradeTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  /// A CLI harness whose store is a copy of the fixture `name`.
  func harness(copying name: String) throws -> CLIHarness {
    let cli = try CLIHarness()
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent(name), to: URL(fileURLWithPath: cli.store))
    return cli
  }

  func expected(_ name: String, _ suffix: String) throws -> String {
    try String(
      contentsOf: Self.fixtures.appendingPathComponent(name + suffix), encoding: .utf8)
  }

  @Test(
    "Every todo and all history are read; tags, due and priority are none; new changes work",
    arguments: ["store-0.1.0-journal-only", "store-0.1.0-with-snapshot"])
  func upgrade(name: String) throws {
    let cli = try harness(copying: name)
    let oldTodos = try JSONDecoder().decode(
      [JSONTodo].self, from: Data(try expected(name, ".list.json").utf8))
    let todos = try cli.detailed()
    #expect(todos.map { JSONTodo(id: $0.id, title: $0.title, done: $0.done) } == oldTodos)
    #expect(todos.allSatisfy { $0.tags.isEmpty && $0.due == nil && $0.priority == nil })
    #expect(try cli.at("history").output == (try expected(name, ".history.txt")))
    let history = try JSONDecoder().decode(
      [JSONHistoryEntry].self, from: Data(try cli.at("history", "--json").output.utf8))
    #expect(history.allSatisfy { $0.time == nil }, "0.1.0 recorded no times")

    let first = try #require(oldTodos.first?.id)
    #expect(try cli.at("tag", String(first), "upgraded").status == 0)
    #expect(try cli.at("due", String(first), "tomorrow").status == 0)
    #expect(try cli.at("priority", String(first), "high").status == 0)
    let added = try cli.at("add", "after the upgrade", "--tag", "new")
    #expect(added.status == 0)
    let changed = try #require(try cli.detailed().first { $0.id == first })
    #expect(changed.tags == ["upgraded"])
    #expect(changed.due == "2026-03-11")
    #expect(changed.priority == "high")
    #expect(try cli.ids("--tag", "new").count == 1)
    #expect(try cli.at("undo").status == 0)
    #expect(try cli.at("undo").output.hasSuffix("priority #\(first) high\n"))
    #expect(try cli.detailed().first { $0.id == first }?.priority == nil)
    let lines = try cli.at("history").output.split(separator: "\n")
    #expect(lines.count == history.count + 6)
  }
}
