import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("todo-cli never loses a todo")
struct StorageSafetyTests {
  @Test("Two processes adding 200 todos each at once give 400 todos with unique ids")
  func concurrentAdds() throws {
    let cli = try CLIHarness()
    let executable = try #require(CLIHarness.executable).path
    let script = """
      for i in $(seq 200); do "$0" --store "$1" add "$2 $i" > /dev/null || exit 1; done
      """
    let shells = try ["first", "second"].map { name in
      let shell = Process()
      shell.executableURL = URL(fileURLWithPath: "/bin/sh")
      shell.arguments = ["-c", script, executable, cli.store, name]
      try shell.run()
      return shell
    }
    for shell in shells {
      shell.waitUntilExit()
      #expect(shell.terminationStatus == 0)
    }
    let todos = try cli.todos()
    #expect(todos.count == 400)
    #expect(Set(todos.map(\.id)).count == 400)
    #expect(Set(todos.map(\.title)).count == 400)
    for name in ["first", "second"] {
      let titles = todos.map(\.title).filter { $0.hasPrefix(name + " ") }
      #expect(titles == (1...200).map { "\(name) \($0)" }, "each shell's todos keep their order")
    }
  }

  @Test("Two processes tagging, dating and prioritising the same todos at once lose no change")
  func concurrentDetails() throws {
    let cli = try CLIHarness()
    for index in 1...40 { try cli.run("add", "todo \(index)") }
    let executable = try #require(CLIHarness.executable).path
    let scripts = [
      #"for i in $(seq 40); do "$0" --store "$1" tag "$i" "t$i" > /dev/null || exit 1; done"#,
      #"""
      for i in $(seq 40); do
        "$0" --store "$1" priority "$i" high > /dev/null || exit 1
        "$0" --store "$1" due "$i" 2026-03-01 > /dev/null || exit 1
      done
      """#,
    ]
    let shells = try scripts.map { script in
      let shell = Process()
      shell.executableURL = URL(fileURLWithPath: "/bin/sh")
      shell.arguments = ["-c", script, executable, cli.store]
      try shell.run()
      return shell
    }
    for shell in shells {
      shell.waitUntilExit()
      #expect(shell.terminationStatus == 0)
    }
    let todos = try cli.detailed()
    #expect(todos.count == 40)
    for todo in todos {
      #expect(todo.tags == ["t\(todo.id)"], "\(todo)")
      #expect(todo.priority == "high" && todo.due == "2026-03-01", "\(todo)")
    }
    #expect(try cli.run("history").output.split(separator: "\n").count == 40 + 3 * 40)
  }

  @Test("kill -9 at varied moments leaves a readable store with every completed add")
  func killNine() throws {
    let cli = try CLIHarness()
    try cli.run("add", "before")
    var completed = ["before"]
    for attempt in 0..<40 {
      let title = "attempt \(attempt)"
      let process = try cli.makeProcess(arguments: ["--store", cli.store, "add", title])
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      // The delays sweep across the run: before the lock, while reading, while writing.
      usleep(useconds_t((attempt * 1_700) % 45_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason == .exit && process.terminationStatus == 0 {
        completed.append(title)
      }
    }
    let titles = try cli.todos().map(\.title)
    for title in completed { #expect(titles.contains(title), "\(title) was lost") }
    #expect(Set(titles).count == titles.count)
    #expect(try cli.run("add", "after").status == 0)
    #expect(try cli.todos().last?.title == "after")
    #expect(try cli.run("history").status == 0)
  }

  @Test("kill -9 during tag, due and priority leaves a readable store with every completed change")
  func killNineDuringNewChanges() throws {
    let cli = try CLIHarness()
    for index in 1...10 { try cli.run("add", "todo \(index)") }
    var completedTags: [(id: Int, tag: String)] = []
    for attempt in 0..<30 {
      let id = attempt % 10 + 1
      let arguments: [String]
      switch attempt % 3 {
      case 0: arguments = ["tag", "\(id)", "k\(attempt)"]
      case 1: arguments = ["due", "\(id)", "2026-03-\(10 + attempt % 18)"]
      default: arguments = ["priority", "\(id)", attempt % 2 == 0 ? "high" : "low"]
      }
      let process = try cli.makeProcess(arguments: ["--store", cli.store] + arguments)
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      // As for adds: the delays sweep across the run, from before the lock to the write.
      usleep(useconds_t((attempt * 1_700) % 45_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      if process.terminationReason == .exit && process.terminationStatus == 0,
        arguments[0] == "tag"
      {
        completedTags.append((id, arguments[2]))
      }
    }
    let todos = try cli.detailed()
    #expect(todos.count == 10)
    for (id, tag) in completedTags {
      #expect(todos.first { $0.id == id }?.tags.contains(tag) == true, "tag \(tag) was lost")
    }
    #expect(try cli.run("tag", "1", "after").status == 0)
    #expect(try cli.detailed().first?.tags.contains("after") == true)
    #expect(try cli.run("history", "--json").status == 0)
  }

  @Test("A damaged journal fails every command with exit 1 naming the file and line")
  func damagedJournal() throws {
    let cli = try CLIHarness()
    for title in ["one", "two", "three"] { try cli.run("add", title) }
    let journal = cli.store + "/journal-1.jsonl"
    var text = try String(contentsOfFile: journal, encoding: .utf8)
    text = text.replacingOccurrences(of: #"{"seq":2,"#, with: #"{"seq":2,,"#)
    try Data(text.utf8).write(to: URL(fileURLWithPath: journal))
    let before = try cli.storeContents()
    for arguments in [
      ["list"], ["list", "--json"], ["add", "x"], ["done", "1"], ["edit", "1", "y"],
      ["remove", "1"], ["clear"], ["undo"], ["history"], ["tag", "1", "x"], ["untag", "1", "x"],
      ["due", "1", "today"], ["priority", "1", "high"], ["list", "--tag", "x", "--sort", "due"],
      ["history", "--json", "--limit", "1"],
    ] {
      let result = try cli.run(arguments: ["--store", cli.store] + arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.error.contains("journal-1.jsonl:3"), "\(arguments): \(result.error)")
    }
    #expect(try cli.storeContents() == before, "the damaged store was changed")
  }

  @Test("A damaged snapshot or an unknown version fails with exit 1; nothing is written")
  func damagedSnapshotAndVersion() throws {
    let cli = try CLIHarness()
    for index in 0..<210 { try cli.run("add", "todo \(index)") }
    let snapshot = cli.store + "/snapshot.json"
    #expect(FileManager.default.fileExists(atPath: snapshot))
    var bytes = try Data(contentsOf: URL(fileURLWithPath: snapshot))
    bytes[bytes.count / 2] ^= 0x20
    try bytes.write(to: URL(fileURLWithPath: snapshot))
    var before = try cli.storeContents()
    for arguments in [["list"], ["add", "x"]] {
      let result = try cli.run(arguments: ["--store", cli.store] + arguments)
      #expect(result.status == 1)
      #expect(result.error.contains("snapshot"), "\(result.error)")
    }
    #expect(try cli.storeContents() == before)

    let other = try CLIHarness()
    try other.run("add", "x")
    let journal = other.store + "/journal-1.jsonl"
    let text = try String(contentsOfFile: journal, encoding: .utf8)
      .replacingOccurrences(of: #""version":1"#, with: #""version":3"#)
    try Data(text.utf8).write(to: URL(fileURLWithPath: journal))
    before = try other.storeContents()
    let result = try other.run("add", "y")
    #expect(result.status == 1)
    #expect(result.error.contains("journal-1.jsonl:1: version 3 is not supported"))
    #expect(try other.storeContents() == before)
  }
}
