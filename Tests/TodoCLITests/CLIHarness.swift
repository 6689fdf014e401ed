import Foundation
import Testing

/// Runs the built `todo-cli` as a user's shell would, each test on its own store directory.
final class CLIHarness {
  /// What one run printed and returned.
  struct Result {
    var status: Int32
    var output: String
    var error: String
    /// Whether a signal ended the process (then `status` is the signal's number).
    var signaled = false
    /// Whether the process was killed for outliving the limit given to ``run(_:killingAfter:)``.
    var killed = false
    /// Every thread's backtrace, taken with `gdb` just before a run that outlived its limit was
    /// killed; `nil` when it was not killed or `gdb` is missing.
    var hangTrace: String? = nil
  }

  /// Every thread's backtrace of the running process `pid`, from `gdb`, or `nil` without it.
  static func backtrace(of pid: Int32) -> String? {
    let gdb = "/usr/bin/gdb"
    guard FileManager.default.isExecutableFile(atPath: gdb) else { return nil }
    let traceURL = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hang-\(UUID().uuidString).txt")
    guard FileManager.default.createFile(atPath: traceURL.path, contents: nil),
      let trace = try? FileHandle(forWritingTo: traceURL)
    else { return nil }
    defer { try? FileManager.default.removeItem(at: traceURL) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: gdb)
    process.arguments = ["-p", String(pid), "-batch", "-ex", "thread apply all bt"]
    process.standardOutput = trace
    process.standardError = trace
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    guard (try? process.run()) != nil else { return nil }
    if exited.wait(timeout: .now() + 60) == .timedOut { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    try? trace.close()
    return (try? Data(contentsOf: traceURL)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The built executable, found next to the test bundle in the build products directory.
  static let executable: URL? = {
    var candidates: [URL] = []
    if let bundle = Bundle.main.executableURL {
      candidates.append(bundle.deletingLastPathComponent())
    }
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
    candidates.append(Bundle.main.bundleURL)
    let arguments0 = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    candidates.append(arguments0)
    for directory in candidates {
      let url = directory.appendingPathComponent("todo-cli")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
  }()

  let directory: URL
  var store: String { directory.appendingPathComponent("store").path }

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("todo-cli-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// Runs `todo-cli --store <store> <arguments>` and waits for it.
  @discardableResult
  func run(_ arguments: String..., environment: [String: String]? = nil) throws -> Result {
    try run(arguments: ["--store", store] + arguments, environment: environment)
  }

  /// Runs `todo-cli <arguments>` exactly as given.
  @discardableResult
  func run(arguments: [String], environment: [String: String]? = nil) throws -> Result {
    try run(try makeProcess(arguments: arguments, environment: environment))
  }

  /// Runs `process`, its output and error going to files, and waits for it; with a `limit`,
  /// kills it with `SIGKILL` if it has not exited after that many seconds.
  func run(_ process: Process, killingAfter limit: Double? = nil) throws -> Result {
    // Files rather than pipes: a large output can never block the child while we wait.
    let name = UUID().uuidString
    let outputURL = directory.appendingPathComponent("\(name).out")
    let errorURL = directory.appendingPathComponent("\(name).err")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    let output = try FileHandle(forWritingTo: outputURL)
    let error = try FileHandle(forWritingTo: errorURL)
    process.standardOutput = output
    process.standardError = error
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    var killed = false
    var hangTrace: String?
    if let limit, exited.wait(timeout: .now() + limit) == .timedOut {
      hangTrace = Self.backtrace(of: process.processIdentifier)
      kill(process.processIdentifier, SIGKILL)
      killed = true
    }
    process.waitUntilExit()
    try output.close()
    try error.close()
    defer {
      try? FileManager.default.removeItem(at: outputURL)
      try? FileManager.default.removeItem(at: errorURL)
    }
    return Result(
      status: process.terminationStatus,
      output: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
      error: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self),
      signaled: process.terminationReason == .uncaughtSignal, killed: killed,
      hangTrace: hangTrace)
  }

  func makeProcess(arguments: [String], environment: [String: String]? = nil) throws -> Process {
    let executable = try #require(Self.executable, "todo-cli was not built next to the tests")
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    return process
  }

  /// Every file of the store and its bytes.
  func storeContents() throws -> [String: Data] {
    var contents: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: store) {
      contents[name] = try Data(contentsOf: URL(fileURLWithPath: store + "/" + name))
    }
    return contents
  }

  /// The todos `list --json` prints.
  func todos() throws -> [JSONTodo] {
    let result = try run("list", "--json")
    #expect(result.status == 0, "list failed: \(result.error)")
    return try JSONDecoder().decode([JSONTodo].self, from: Data(result.output.utf8))
  }
}

/// A todo as `list --json` prints it.
struct JSONTodo: Decodable, Equatable {
  var id: Int
  var title: String
  var done: Bool
  var tags: [String] = []
  var due: String? = nil
  var priority: String? = nil

  init(
    id: Int, title: String, done: Bool, tags: [String] = [], due: String? = nil,
    priority: String? = nil
  ) {
    self.id = id
    self.title = title
    self.done = done
    self.tags = tags
    self.due = due
    self.priority = priority
  }

  private enum CodingKeys: String, CodingKey {
    case id, title, done, tags, due, priority
  }

  /// Reads a todo as any release printed it: 0.1.0 printed no tags, due date or priority.
  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    title = try container.decode(String.self, forKey: .title)
    done = try container.decode(Bool.self, forKey: .done)
    tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
    due = try container.decodeIfPresent(String.self, forKey: .due)
    priority = try container.decodeIfPresent(String.self, forKey: .priority)
  }
}
