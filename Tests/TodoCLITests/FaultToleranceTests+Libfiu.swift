import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real `todo-cli` under libfiu's injected faults (`fiu-run -x`): after each run, what its
/// exit status promises is checked without faults.
extension FaultToleranceTests {
  /// `fiu-run` from Debian's fiu-utils, which makes POSIX calls fail at random.
  static let fiuRun: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/fiu-run"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }()

  /// Writes a journal of `count` adds and a lock, so that a few more changes cross the snapshot
  /// point.
  func seed(_ cli: CLIHarness, count: Int) throws {
    try FileManager.default.createDirectory(atPath: cli.store, withIntermediateDirectories: true)
    var text = #"{"format":"statestore-action-log","version":1,"state":"AppState","schema":1}"#
    text += "\n"
    for id in 1...count {
      text += #"{"seq":\#(id),"type":"AddTodo","payload":{"id":\#(id),"title":"seed \#(id)"}}"#
      text += "\n"
    }
    try Data(text.utf8).write(to: URL(fileURLWithPath: cli.store + "/journal-1.jsonl"))
    // The lock, as the first change would create it, so that a failed run leaves every file,
    // and no new one, as it was.
    try Data().write(to: URL(fileURLWithPath: cli.store + "/lock"))
  }

  /// Whether `after` is `before` with one more segment, after every other, holding no entry.
  ///
  /// That is what a failed append leaves when it started a segment and removing it failed too
  /// (an injected `unlink` fault). Readers see no entry in it, as in a torn tail, and the next
  /// append writes its header over whatever part of it is there.
  static func onlyAddsAnEmptySegment(_ after: [String: Data], to before: [String: Data]) -> Bool {
    func start(_ name: String) -> Int? {
      guard name.hasPrefix("journal-"), name.hasSuffix(".jsonl") else { return nil }
      return Int(name.dropFirst("journal-".count).dropLast(".jsonl".count))
    }
    let added = Set(after.keys).subtracting(before.keys)
    guard added.count == 1, let name = added.first, let first = start(name),
      before.keys.compactMap(start).allSatisfy({ $0 < first }),
      let data = after[name], after.filter({ $0.key != name }) == before
    else { return false }
    // No newline after the header's: at most the header line, whole or torn.
    return data.filter { $0 == 0x0A }.count <= 1
  }

  /// The name of the journal's last segment, which changes append to.
  func lastSegment(_ cli: CLIHarness) throws -> String {
    let starts = try FileManager.default.contentsOfDirectory(atPath: cli.store).compactMap {
      name -> Int? in
      guard name.hasPrefix("journal-"), name.hasSuffix(".jsonl") else { return nil }
      return Int(name.dropFirst("journal-".count).dropLast(".jsonl".count))
    }
    return "journal-\(starts.max() ?? 1).jsonl"
  }

  /// The last segment up to the end of its last complete line: what a reader reads.
  func completeLastSegment(_ cli: CLIHarness) throws -> Data {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: cli.store + "/" + lastSegment(cli)))
    guard let last = bytes.lastIndex(of: 0x0A) else { return Data() }
    return bytes[...last]
  }

  /// Every complete entry line of every segment, in journal order, without the segments'
  /// headers: what the journal holds, however it is split into segments.
  func completeJournal(_ cli: CLIHarness) throws -> Data {
    let starts = try FileManager.default.contentsOfDirectory(atPath: cli.store).compactMap {
      name -> Int? in
      guard name.hasPrefix("journal-"), name.hasSuffix(".jsonl") else { return nil }
      return Int(name.dropFirst("journal-".count).dropLast(".jsonl".count))
    }.sorted()
    var entries = Data()
    for start in starts {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: cli.store + "/journal-\(start).jsonl"))
      for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
      where line.starts(with: Array(#"{"seq":"#.utf8)) {
        entries.append(contentsOf: line)
        entries.append(0x0A)
      }
    }
    return entries
  }

  /// A command that changes `todos`, and how to recognise its change.
  func command(_ number: Int, on todos: [JSONTodo]) -> ([String], ([JSONTodo]) -> Bool) {
    let open = todos.filter { !$0.done }
    let done = todos.filter(\.done)
    switch number % 11 {
    case 1 where !open.isEmpty:
      let id = open[number % open.count].id
      return (["done", "\(id)"], { $0.first { $0.id == id }?.done == true })
    case 2 where !todos.isEmpty:
      let id = todos[number % todos.count].id
      return (["remove", "\(id)"], { !$0.contains { $0.id == id } })
    case 3 where !done.isEmpty:
      let id = done[number % done.count].id
      return (["reopen", "\(id)"], { $0.first { $0.id == id }?.done == false })
    case 4 where !todos.isEmpty:
      let id = todos[number % todos.count].id
      let title = "edited \(number)"
      return (["edit", "\(id)", title], { $0.first { $0.id == id }?.title == title })
    case 5:
      return (["undo"], { $0 != todos })
    case 6 where !done.isEmpty:
      return (["clear"], { !$0.contains(where: \.done) })
    case 7 where !todos.isEmpty:
      let todo = todos[number % todos.count]
      let tag = "tag\(number)"
      return (
        ["tag", "\(todo.id)", tag], { $0.first { $0.id == todo.id }?.tags.contains(tag) == true }
      )
    case 8 where todos.contains { !$0.tags.isEmpty }:
      let tagged = todos.filter { !$0.tags.isEmpty }
      let todo = tagged[number % tagged.count]
      let tag = todo.tags[number % todo.tags.count]
      return (
        ["untag", "\(todo.id)", tag], { $0.first { $0.id == todo.id }?.tags.contains(tag) == false }
      )
    case 9 where !todos.isEmpty:
      let todo = todos[number % todos.count]
      let due = "2027-01-\(10 + number % 19)"
      let arguments = todo.due == due ? ["due", "\(todo.id)", "none"] : ["due", "\(todo.id)", due]
      let expected = todo.due == due ? nil : due
      return (arguments, { $0.first { $0.id == todo.id }.map { $0.due == expected } == true })
    case 10 where !todos.isEmpty:
      let todo = todos[number % todos.count]
      let levels = ["high", "medium", "low"]
      let level = levels.first { $0 != todo.priority } ?? "high"
      return (
        ["priority", "\(todo.id)", level], { $0.first { $0.id == todo.id }?.priority == level }
      )
    default:
      let title = "added \(number)"
      // Every other add also gives a tag, a due date and a priority, written in the same entry.
      let details =
        number.isMultiple(of: 2)
        ? [] : ["--tag", "t\(number)", "--due", "2027-02-01", "--priority", "low"]
      return (
        ["add", title] + details,
        { after in
          after.count == todos.count + 1 && after.last?.title == title
            && (details.isEmpty || after.last?.tags == ["t\(number)"])
        }
      )
    }
  }

  /// A process that runs `todo-cli --store <store> <arguments>` under `fiu-run` with each of
  /// `failurePoints` enabled (`enable_random name=…,probability=…` and the like), without the
  /// Swift runtime's backtracer, whose own calls would meet the faults too.
  func faultyProcess(
    _ cli: CLIHarness, _ arguments: [String], failurePoints: [String]
  ) throws -> Process {
    let fiuRun = try #require(Self.fiuRun)
    let executable = try #require(CLIHarness.executable).path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: fiuRun)
    process.arguments =
      ["-x"] + failurePoints.flatMap { ["-c", $0] } + [executable, "--store", cli.store]
      + arguments
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["SWIFT_BACKTRACE": "enable=no"], uniquingKeysWith: { $1 })
    return process
  }

  /// Whether a hung process's backtrace shows libfiu's own deadlock: some thread waits on a
  /// lock with a libfiu frame (`fiu_fail`, or a frame in `libfiu.so`) on its stack.
  static func isLibfiuDeadlock(_ trace: String) -> Bool {
    trace.components(separatedBy: "\nThread ").contains { thread in
      (thread.contains("lll_lock_wait") || thread.contains("pthread_mutex_lock")
        || thread.contains("futex_wait"))
        && (thread.contains("libfiu") || thread.contains("fiu_fail"))
    }
  }

  /// Runs changes under `fiu-run` with `failurePoints` failing at random.
  ///
  /// After each run it checks, without faults, exactly what the exit status promises: 0 and 3,
  /// the change is there; 1, every byte of the store is as it was; 4, the store is exactly as
  /// before or exactly as after. Returns how many runs ended with each status.
  func runUnderFaults(
    _ cli: CLIHarness, runs: Range<Int>, failurePoints: [String], probability: Double
  ) throws -> (statuses: [Int32: Int], killed: Int, notLibfiu: [String]) {
    var counts = (statuses: [Int32: Int](), killed: 0, notLibfiu: [String]())
    for number in runs {
      let before = try cli.todos()
      let storeBefore = try cli.storeContents()
      let journalBefore = try completeJournal(cli)
      let lastSegmentBefore = try completeLastSegment(cli)
      let (arguments, isDone) = command(number, on: before)
      let process = try faultyProcess(
        cli, arguments,
        failurePoints: failurePoints.map { "enable_random name=\($0),probability=\(probability)" })
      // libfiu's preload can deadlock a process: its `fiu_fail` resolves functions lazily with
      // `dlsym` while holding its own lock, so a thread inside `dlopen` (holding the loader's
      // lock and calling `malloc`, which fiu wraps) and libdispatch's pool monitor (calling
      // `open`) wait for each other forever. Seen once, with both backtraces in libfiu; no code
      // of todo-cli's runs on either thread. A run that outlives a generous limit is killed and
      // checked as any killed command is: all of its change or none of it.
      let result = try cli.run(process, killingAfter: 120)
      let context = "\(arguments): exit \(result.status), \(result.error)"
      let after = try cli.todos()
      let changed = isDone(after)
      if result.killed {
        #expect(changed || after == before, "\(context): killed, and left part of its change")
        counts.killed += 1
        // A hang is libfiu's own only if a thread waits on a lock inside libfiu; anything else
        // (a hang in todo-cli's code, or one gdb could not show) fails the test with its trace.
        if let trace = result.hangTrace, !Self.isLibfiuDeadlock(trace) {
          counts.notLibfiu.append("\(context)\n\(trace)")
        }
        continue
      }
      #expect(!result.signaled, "\(context): crashed")
      counts.statuses[result.status, default: 0] += 1
      switch result.status {
      case 0:
        #expect(changed, "\(context): exit 0 but the change is missing")
        if arguments[0] == "add" {
          #expect(result.output == "\(after.last?.id ?? -1)\n", "\(context): no id printed")
        }
      case 1:
        // Byte for byte, except that a torn line left by a killed run may have been cut off:
        // readers ignore it, and a change cuts it before writing.
        let contents = try cli.storeContents()
        let tailCut = storeBefore.merging([try lastSegment(cli): lastSegmentBefore]) { $1 }
        let differing = Set(contents.keys).union(storeBefore.keys).filter {
          contents[$0] != storeBefore[$0]
        }.sorted().map {
          "\($0): \(storeBefore[$0]?.count ?? -1) -> \(contents[$0]?.count ?? -1) bytes"
        }
        #expect(
          contents == storeBefore || (counts.killed > 0 && contents == tailCut)
            || Self.onlyAddsAnEmptySegment(contents, to: storeBefore),
          "\(context): exit 1 but the store changed: \(differing)")
      case 3:
        #expect(changed, "\(context): exit 3 but the change is missing")
      case 4:
        let journal = try completeJournal(cli)
        let added = journal.count >= journalBefore.count ? journal[journalBefore.count...] : Data()
        #expect(
          (after == before && journal == journalBefore)
            || (changed && journal.starts(with: journalBefore)
              && added.filter { $0 == 0x0A }.count == 1),
          "\(context): exit 4, and the store is neither as before nor as after")
      default:
        Issue.record("\(context): not a status a change may end with")
      }
    }
    return counts
  }

  @Test("A run that outlives its limit is killed, and says so")
  func runPastItsLimitIsKilled() throws {
    let cli = try CLIHarness()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sleep")
    process.arguments = ["600"]
    let result = try cli.run(process, killingAfter: 0.2)
    #expect(result.killed)
    #expect(result.signaled && result.status == SIGKILL)
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") {
      // Its backtrace was read before the kill: `sleep` waits in the kernel, not in libfiu.
      let trace = try #require(result.hangTrace)
      #expect(trace.contains("sleep"), "\(trace)")
      #expect(!Self.isLibfiuDeadlock(trace))
    }
  }

  @Test("A hang counts as libfiu's only when a thread waits on a lock inside libfiu")
  func libfiuDeadlockIsToldApart() {
    let libfiu = """
      Thread 2 (Thread 0x7f (LWP 12)):
      #0  __lll_lock_wait (futex=0x7f) at ./nptl/lowlevellock.c:49
      #1  ___pthread_mutex_lock (mutex=0x7f) at ./nptl/pthread_mutex_lock.c:93
      #2  0x00007f in fiu_fail () from /lib/x86_64-linux-gnu/libfiu.so.1
      #3  0x00007f in open () from /usr/lib/fiu/fiu_posix_preload.so
      """
    let ours = """
      Thread 1 (Thread 0x7f (LWP 11)):
      #0  0x00007f in flock () from /lib/x86_64-linux-gnu/libc.so.6
      #1  0x00007f in flock () from /usr/lib/fiu/fiu_posix_preload.so
      #2  0x00005 in $s9TodoCore16FileTodoStorage ()
      """
    #expect(Self.isLibfiuDeadlock(libfiu))
    #expect(!Self.isLibfiuDeadlock(ours))
    #expect(!Self.isLibfiuDeadlock("\n" + ours + "\n" + ours))
  }

  @Test(
    "Under random disk faults (fiu-run), every run keeps the promise of its exit status",
    .enabled(if: fiuRun != nil))
  func randomDiskFaults() throws {
    let cli = try CLIHarness()
    try seed(cli, count: 195)
    let disk = try runUnderFaults(
      cli, runs: 0..<60,
      failurePoints: [
        "posix/io/rw/pwrite", "posix/io/sync/fsync", "posix/io/dir/rename",
        "posix/io/rw/ftruncate", "posix/io/dir/unlink", "posix/io/oc/close",
      ],
      probability: 0.25)
    let output = try runUnderFaults(
      cli, runs: 60..<90, failurePoints: ["posix/io/rw/write", "posix/io/rw/pwrite"],
      probability: 0.3)
    // A hang is killed after its limit and its backtrace read with gdb: one of todo-cli's own
    // fails the test with the trace. libfiu's own deadlock is a rare race (about one run in a
    // hundred); without gdb to tell them apart, at most one hang passes.
    #expect(
      disk.notLibfiu.isEmpty && output.notLibfiu.isEmpty,
      "runs hung outside libfiu: \(disk.notLibfiu + output.notLibfiu)")
    let canTell = FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb")
    #expect(
      disk.killed + output.killed <= (canTell ? 3 : 1),
      "runs hung: \(disk.killed) with disk faults, \(output.killed) with output faults")
    // Both outcomes occurred, so the faults really were injected.
    #expect(disk.statuses[0, default: 0] > 0 && disk.statuses[1, default: 0] > 0, "\(disk)")
    #expect(output.statuses[0, default: 0] > 0, "\(output)")
    #expect(output.statuses.keys.contains { $0 != 0 }, "\(output)")
    let history = try cli.run("history")
    #expect(history.status == 0, "\(history.error)")
    #expect(history.output.split(separator: "\n").count > 200, "the runs crossed a snapshot")
    #expect(FileManager.default.fileExists(atPath: cli.store + "/snapshot.json"))
    #expect(try cli.run("add", "after the faults").status == 0)
  }

  @Test(
    "When every fsync fails (fiu-run), a change exits 4 and is all there or not there at all",
    .enabled(if: fiuRun != nil))
  func everySyncFails() throws {
    let cli = try CLIHarness()
    try seed(cli, count: 20)
    for number in 0..<6 {
      let before = try cli.todos()
      let storeBefore = try cli.storeContents()
      let (arguments, isDone) = command(number, on: before)
      let process = try faultyProcess(
        cli, arguments, failurePoints: ["enable name=posix/io/sync/fsync,failinfo=\(EIO)"])
      let result = try cli.run(process, killingAfter: 120)
      let context = "\(arguments): exit \(result.status), \(result.error)"
      #expect(!result.signaled && !result.killed, "\(context)")
      #expect(result.status == 4, "\(context)")
      #expect(result.error.contains("Cannot tell whether the change was saved"), "\(context)")
      let after = try cli.todos()
      // The journal was cut back; only its fsync failed.
      #expect(after == before || isDone(after), "\(context)")
      #expect(try cli.storeContents() == storeBefore, "\(context): the cut did not happen")
    }
  }

  @Test(
    "A saved change whose --record entry cannot be written exits 3 (fiu-run), unsaid or not",
    .enabled(if: fiuRun != nil))
  func recordingFails() throws {
    let cli = try CLIHarness()
    let log = cli.directory.appendingPathComponent("session.jsonl").path
    // The log exists with its header, so that recording starts without writing.
    #expect(try cli.run("--record", log, "add", "first").status == 0)
    let logBefore = try Data(contentsOf: URL(fileURLWithPath: log))
    // Every `write` fails: the log's entry and every message; the journal uses `pwrite`.
    let process = try faultyProcess(
      cli, ["--record", log, "done", "1"],
      failurePoints: ["enable name=posix/io/rw/write,failinfo=\(ENOSPC)"])
    let result = try cli.run(process, killingAfter: 120)
    #expect(!result.signaled && !result.killed)
    #expect(result.status == 3, "\(result.error)")
    #expect(result.error.isEmpty, "no message could be written")
    #expect(try cli.todos().map(\.done) == [true])
    #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == logBefore)
  }

  @Test(
    "When open fails with ENOENT (fiu-run), a read never shows a stored list as empty",
    .enabled(if: fiuRun != nil))
  func openFailsWithENOENT() throws {
    let cli = try CLIHarness()
    try seed(cli, count: 230)
    #expect(try cli.run("done", "7").status == 0)
    let expected = try cli.run("list", "--json")
    try #require(expected.status == 0)
    let openFails = ["enable_random name=posix/io/oc/open,probability=0.3,failinfo=\(ENOENT)"]
    // libdispatch's worker-pool monitor opens /proc/<thread>/stat as a process starts, and traps
    // when that open fails (SIGILL in `_dispatch_workq_monitor_pools`): about one run in eight
    // here. Such a run has no exit status to check; it must still not print another list.
    var statuses: [Int32: Int] = [:]
    var crashes = 0
    for _ in 0..<25 {
      let result = try cli.run(
        try faultyProcess(cli, ["list", "--json"], failurePoints: openFails), killingAfter: 120)
      let context = "exit \(result.status), \(result.error)"
      #expect(result.output.isEmpty || result.output == expected.output, "\(context): another list")
      guard !result.killed else { continue }
      guard !result.signaled else {
        crashes += 1
        continue
      }
      statuses[result.status, default: 0] += 1
      #expect(result.status == 0 || result.status == 1, "\(context)")
      if result.status == 0 {
        #expect(result.output == expected.output, "\(context): exit 0 with another list")
      } else {
        #expect(result.output.isEmpty, "\(context): printed a list")
        #expect(result.error.contains("No such file or directory"), "\(context)")
      }
    }
    #expect(statuses[1, default: 0] > 0, "no open failed: \(statuses)")
    // Most runs must end with a status for the checks above to mean something. The monitor's
    // trap is about one run in eight, more under ThreadSanitizer (whose runtime opens more
    // files as the process starts: 9 of 25 once), so the bound is half the runs.
    #expect(crashes * 2 <= 25, "\(crashes) runs crashed")
    // `clear` may fail, but never succeeds without clearing.
    var cleared = false
    for _ in 0..<10 where !cleared {
      let before = try cli.todos()
      let storeBefore = try cli.storeContents()
      let result = try cli.run(
        try faultyProcess(cli, ["clear"], failurePoints: openFails), killingAfter: 120)
      let context = "clear: exit \(result.status), \(result.error)"
      let after = try cli.todos()
      let isCleared = after == before.filter { !$0.done }
      if result.signaled || result.killed {
        #expect(after == before || isCleared, "\(context): part of a change")
        cleared = isCleared
        continue
      }
      switch result.status {
      case 0:
        #expect(isCleared, "\(context): exit 0 without clearing")
        cleared = true
      case 1:
        #expect(try cli.storeContents() == storeBefore, "\(context): the store changed")
      default:
        Issue.record("\(context)")
      }
    }
  }
}
