import ActionLog
import Foundation
import Inspector
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A log of 200,000 entries: every question completes, reading the file a block at a time.
@Suite("Large logs")
struct LargeLogTests {
  static let entries = 200_000
  static let checkpointInterval = 10_000

  /// Writes a diff-mode log of `entries` entries, each adding 1 to `/count`, with a checkpoint
  /// every 10,000 entries, and returns its path and size.
  static func writeLargeLog(in harness: InspectorHarness) throws -> (path: String, size: Int) {
    let url = harness.directory.appendingPathComponent("large.jsonl")
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    var text = #"{"format":"statestore-action-log","version":1,"state":"Counter"}"# + "\n"
    text += #"{"checkpoint":0,"state":{"count":0,"label":"a counter"}}"# + "\n"
    var size = 0
    for sequence in 1...entries {
      text += #"{"seq":\#(sequence),"type":"Bump","cause":"user: tap","payload":{"by":1},"#
      text +=
        #""diff":[{"op":"replace","path":"/count","old":\#(sequence - 1),"value":\#(sequence)}]}"#
      text += "\n"
      if sequence % checkpointInterval == 0 {
        text += #"{"checkpoint":\#(sequence),"state":{"count":\#(sequence),"label":"a counter"}}"#
        text += "\n"
      }
      if text.utf8.count > 1 << 20 || sequence == entries {
        size += text.utf8.count
        try handle.write(contentsOf: Data(text.utf8))
        text = ""
      }
    }
    try handle.close()
    return (url.path, size)
  }

  /// Runs the inspector in-process and counts the lines it prints, keeping only the last.
  private func run(_ arguments: String...) -> (
    status: Int32, lines: Int, last: String, error: String
  ) {
    var lines = 0
    var last = ""
    var error = ""
    var pending = ""
    let status = Inspector.run(
      arguments,
      output: .init(
        write: { text in
          pending += text
          guard text.utf8.contains(0x0A) else { return }
          let parts = pending.split(separator: "\n", omittingEmptySubsequences: false)
          lines += parts.count - 1
          last = String(parts[parts.count - 2])
          pending = String(parts[parts.count - 1])
        }, message: { error += $0 }))
    return (status, lines, last, error)
  }

  @Test("Timeline, summary, --at and --changes-of all complete on 200,000 entries")
  func everyQueryCompletes() throws {
    let harness = try InspectorHarness()
    let (path, _) = try Self.writeLargeLog(in: harness)
    let checkpoints = Self.entries / Self.checkpointInterval + 1

    let timeline = run("--json", path)
    #expect(timeline.status == 0, "\(timeline.error)")
    #expect(timeline.lines == Self.entries + checkpoints)

    let summary = run("--json", "--summary", path)
    #expect(summary.status == 0)
    #expect(summary.last.contains(#""entries":200000"#), "\(summary.last)")
    #expect(summary.last.contains(#""checkpoints":\#(checkpoints)"#))

    let state = run("--json", "--at", "150001", path)
    #expect(state.status == 0)
    #expect(state.last == #"{"count":150001,"label":"a counter"}"#)

    let history = run("--json", "--changes-of", "/count", path)
    #expect(history.status == 0)
    #expect(history.last.hasSuffix(#"],"entriesWithoutState":0}"#))
    #expect(history.last.components(separatedBy: #""type":"Bump""#).count == Self.entries + 1)
  }

  /// The largest resident set of `executable` run on `arguments`, in bytes, from `wait4`.
  private func peakMemory(of executable: URL, _ arguments: [String]) throws -> Int {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
    try #require(spawned == 0, "posix_spawn failed: \(spawned)")
    var status: Int32 = 0
    var usage = rusage()
    try #require(wait4(pid, &status, 0, &usage) == pid)
    // Linux reports kilobytes.
    return usage.ru_maxrss * 1024
  }

  @Test("The binary's memory does not grow with the log: it streams the file")
  func boundedMemory() throws {
    let harness = try InspectorHarness()
    let executable = try #require(InspectorHarness.executable("statestore-inspect"))
    let (path, size) = try Self.writeLargeLog(in: harness)
    let small = try harness.file("small.jsonl", shopLog)
    for question in [["--summary"], ["--changes-of", "/count"]] {
      let base = try peakMemory(of: executable, ["--json"] + question + [small])
      let large = try peakMemory(of: executable, ["--json"] + question + [path])
      // Holding the file, or a state per entry, would add at least its size (about 25 MB).
      #expect(
        large - base < 8 << 20, "\(question): \(large - base) more bytes for a \(size)-byte log")
    }
  }
}
