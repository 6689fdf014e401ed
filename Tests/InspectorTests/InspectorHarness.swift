import Foundation
import Inspector
import Testing

/// What one run of the inspector printed and returned.
struct InspectorResult {
  var status: Int32
  var output: String
  var error: String
}

/// Hand-written logs, and the inspector run on them, in-process or as the built binary.
final class InspectorHarness {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("inspector-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: directory) }

  /// Writes `text` to a file of the scratch directory and returns its path.
  func file(_ name: String, _ text: String) throws -> String {
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  /// Runs the inspector's logic in-process on `arguments`.
  func run(_ arguments: String...) -> InspectorResult {
    run(arguments: arguments)
  }

  /// Runs the inspector's logic in-process on `arguments`.
  func run(arguments: [String]) -> InspectorResult {
    var output = ""
    var error = ""
    let status = Inspector.run(
      arguments, output: .init(write: { output += $0 }, message: { error += $0 }))
    return InspectorResult(status: status, output: output, error: error)
  }

  /// A built executable of this package, found next to the test bundle.
  static func executable(_ name: String) -> URL? {
    var candidates: [URL] = []
    if let bundle = Bundle.main.executableURL {
      candidates.append(bundle.deletingLastPathComponent())
    }
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
    candidates.append(Bundle.main.bundleURL)
    candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
    for directory in candidates {
      let url = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
  }

  /// Runs `executable` with `arguments` and waits for it, its output going to files.
  func runProcess(_ executable: URL, _ arguments: [String]) throws -> InspectorResult {
    try Self.runProcess(executable, arguments, in: directory)
  }

  /// Runs `executable` with `arguments` and waits for it, its output going to files of
  /// `directory`; safe to call from several threads at once.
  static func runProcess(
    _ executable: URL, _ arguments: [String], in directory: URL
  ) throws -> InspectorResult {
    let name = UUID().uuidString
    let outputURL = directory.appendingPathComponent("\(name).out")
    let errorURL = directory.appendingPathComponent("\(name).err")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    let output = try FileHandle(forWritingTo: outputURL)
    let error = try FileHandle(forWritingTo: errorURL)
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardOutput = output
    process.standardError = error
    try process.run()
    process.waitUntilExit()
    try output.close()
    try error.close()
    return InspectorResult(
      status: process.terminationStatus,
      output: try String(contentsOf: outputURL, encoding: .utf8),
      error: try String(contentsOf: errorURL, encoding: .utf8))
  }
}

/// A session of a small shop app, recorded in diff mode, written by hand.
let shopLog = """
  {"format":"statestore-action-log","version":1,"state":"Shop"}
  {"checkpoint":0,"state":{"cart":[],"user":{"name":"ann"}}}
  {"seq":1,"type":"AddItem","cause":"user: tap","time":100.000,"payload":{"item":"tea"},"diff":[{"op":"add","path":"/cart/0","value":"tea"}]}
  {"seq":2,"scope":"account","type":"Rename","time":101.500,"payload":{"name":"bo"},"diff":[{"op":"replace","path":"/user/name","old":"ann","value":"bo"}]}
  {"seq":3,"type":"AddItem","cause":"user: tap","time":110.000,"payload":{"item":"milk"},"diff":[{"op":"add","path":"/cart/1","value":"milk"}]}
  {"seq":4,"type":"RemoveItem","time":110.250,"payload":{"index":0},"diff":[{"op":"remove","path":"/cart/0","old":"tea"}]}

  """
