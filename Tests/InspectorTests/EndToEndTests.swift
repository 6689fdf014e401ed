import Foundation
import Synchronization
import Testing

@Suite("statestore-inspect, the built binary")
struct EndToEndTests {
  static let inspector = InspectorHarness.executable("statestore-inspect")
  static let todo = InspectorHarness.executable("todo-cli")

  @Test("A todo-cli --record session opens fully: the state after every entry, the summary")
  func todoSession() throws {
    let harness = try InspectorHarness()
    let inspector = try #require(Self.inspector)
    let todo = try #require(Self.todo)
    let store = harness.directory.appendingPathComponent("store").path
    let log = harness.directory.appendingPathComponent("session.jsonl").path
    for command in [
      ["add", "Buy milk"], ["add", "Call mom 📞"], ["done", "1"], ["edit", "2", "Call dad"],
    ] {
      let result = try harness.runProcess(todo, ["--store", store, "--record", log] + command)
      #expect(result.status == 0, "\(command): \(result.error)")
    }
    let at3 = try harness.runProcess(inspector, ["--json", "--at", "3", log])
    #expect(at3.status == 0, "\(at3.error)")
    #expect(
      at3.output
        == #"{"nextID":3,"todos":[{"done":true,"id":1,"title":"Buy milk"},"#
        + #"{"done":false,"id":2,"title":"Call mom 📞"}]}"# + "\n")
    let history = try harness.runProcess(
      inspector, ["--json", "--changes-of", "/todos/1/title", log])
    #expect(history.output.contains(#""seq":2,"#))
    #expect(history.output.contains(#""seq":4,"#))
    #expect(history.output.contains(#""old":"Call mom 📞","new":"Call dad""#))
    let summary = try harness.runProcess(inspector, ["--summary", "--json", log])
    #expect(summary.output.contains(#""entries":4,"unrecorded":0,"entriesWithDiff":4,"#))
    #expect(summary.output.contains(#""timeSpan":{"first":"#), "todo-cli records times")
  }

  @Test("The binary prints what came before the damage, then exits 1 naming the line")
  func damaged() throws {
    let harness = try InspectorHarness()
    let inspector = try #require(Self.inspector)
    let log = try harness.file("damaged.jsonl", shopLog + "garbage\n")
    let result = try harness.runProcess(inspector, [log])
    #expect(result.status == 1)
    #expect(result.output.split(separator: "\n").count == 5)
    #expect(
      result.error
        == "statestore-inspect: \(log): damaged at line 7: not JSON: unexpected character at byte 0\n"
    )
    let usage = try harness.runProcess(inspector, ["--at"])
    #expect(usage.status == 2)
    #expect(usage.error == "statestore-inspect: --at needs a value\n")
  }

  @Test("Output that cannot be written (a full disk) ends with exit 1 and a message, not a trap")
  func fullDisk() throws {
    let harness = try InspectorHarness()
    let inspector = try #require(Self.inspector)
    let log = try harness.file("session.jsonl", shopLog)
    let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    let errorURL = harness.directory.appendingPathComponent("full.err")
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    let error = try FileHandle(forWritingTo: errorURL)
    let process = Process()
    process.executableURL = inspector
    process.arguments = ["--json", log]
    process.standardOutput = full
    process.standardError = error
    try process.run()
    process.waitUntilExit()
    try error.close()
    #expect(process.terminationReason == .exit, "it exits; it is not killed by a trap")
    #expect(process.terminationStatus == 1)
    let message = try String(contentsOf: errorURL, encoding: .utf8)
    #expect(message.hasPrefix("statestore-inspect: cannot write the output: "), "\(message)")
  }

  @Test("A todo-cli store directory opens as one log: every change, in order")
  func todoStore() throws {
    let harness = try InspectorHarness()
    let inspector = try #require(Self.inspector)
    let todo = try #require(Self.todo)
    let store = harness.directory.appendingPathComponent("store").path
    for command in [["add", "Buy milk"], ["add", "Call mom"], ["done", "1"], ["undo"]] {
      let result = try harness.runProcess(todo, ["--store", store] + command)
      #expect(result.status == 0, "\(command): \(result.error)")
    }
    let timeline = try harness.runProcess(inspector, ["--json", store])
    #expect(timeline.status == 0, "\(timeline.error)")
    let types = timeline.output.split(separator: "\n").compactMap { (line: Substring) -> String? in
      guard let range = line.range(of: #""type":""#) else { return nil }
      return String(line[range.upperBound...].prefix { $0 != "\"" })
    }
    #expect(types == ["AddTodo", "AddTodo", "SetDone", "SetDone"], "\(timeline.output)")
    // The journal holds updaters, not states: without the app's registry, the generic tool
    // can show a state only where the store wrote one, and says so.
    let state = try harness.runProcess(inspector, ["--json", "--at", "4", store])
    #expect(state.status == 1)
    #expect(state.error.contains("does not hold the state after entry 4"), "\(state.error)")
  }

  @Test("--follow prints the entries a writer appends while it runs")
  func follow() throws {
    let harness = try InspectorHarness()
    let inspector = try #require(Self.inspector)
    let log = try harness.file("live.jsonl", shopLog)
    let process = Process()
    process.executableURL = inspector
    process.arguments = ["--follow", "--json", log]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    defer {
      // SIGKILL: a child of the test process may inherit a mask that blocks SIGTERM.
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    let reader = LineReader(pipe.fileHandleForReading)
    let first = try #require(reader.lines(5, within: 30), "the timeline so far")
    #expect(first.last?.hasPrefix(#"{"seq":4,"#) == true)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
    try handle.seekToEnd()
    // A line in two writes: the first half must wait for its newline.
    try handle.write(contentsOf: Data(#"{"seq":5,"type":"Checkout","#.utf8))
    try handle.write(contentsOf: Data(#""payload":{},"diff":[]}"#.utf8 + [0x0A]))
    try handle.close()
    let next = try #require(reader.lines(1, within: 30), "the new entry")
    #expect(next == [#"{"seq":5,"line":7,"type":"Checkout","scope":"","payload":{},"diff":[]}"#])
  }
}

/// Reads whole lines from a pipe on a thread of its own, so that a test can wait for them with
/// a deadline instead of hanging.
final class LineReader: Sendable {
  private let received = Mutex<[String]>([])
  /// Signalled once per line received.
  private let arrived = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      var buffer = Data()
      while case let data = handle.availableData, !data.isEmpty {
        buffer.append(data)
        while let newline = buffer.firstIndex(of: 0x0A) {
          let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
          buffer.removeSubrange(buffer.startIndex...newline)
          self.received.withLock { $0.append(line) }
          self.arrived.signal()
        }
      }
    }
  }

  /// The next `count` lines, or `nil` if they have not all come within `seconds`.
  func lines(_ count: Int, within seconds: Double) -> [String]? {
    let deadline = DispatchTime.now() + seconds
    for _ in 0..<count {
      guard arrived.wait(timeout: deadline) == .success else { return nil }
    }
    return received.withLock { lines in
      let taken = Array(lines.prefix(count))
      lines.removeFirst(count)
      return taken
    }
  }
}
