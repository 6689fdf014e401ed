import Foundation

/// Runs the toolchain's `swiftc` to type-check a file against the package's built modules.
struct SwiftCompiler: Sendable {
  /// The `swiftc` executable.
  let executable: URL
  /// The build's `Modules` directory, holding the library modules' `.swiftmodule` files.
  let modules: URL

  /// What a run of the compiler said.
  struct Output: Sendable {
    let status: Int32
    let diagnostics: String
  }

  /// Why the compiler or the built modules could not be found.
  struct NotFound: Error, CustomStringConvertible {
    let description: String
  }

  /// The compiler on `PATH` (or in `SWIFTC`), and the `Modules` directory of the build that
  /// built this test bundle.
  static func locate() throws -> SwiftCompiler {
    guard let executable = findSwiftc() else {
      throw NotFound(
        description: "swiftc is neither on PATH nor next to the Swift runtime; set SWIFTC")
    }
    guard let modules = findModules() else {
      throw NotFound(
        description: "no Modules/StateStore.swiftmodule above the test bundle "
          + "(\(Bundle.main.bundlePath))")
    }
    return SwiftCompiler(executable: executable, modules: modules)
  }

  /// Type-checks `file` as a Swift 6 program (top-level code allowed) that may import the
  /// package's library modules; warnings are errors, as in the package itself.
  func typecheck(_ file: URL, scratch: URL) async throws -> Output {
    let log = scratch.appendingPathComponent(file.lastPathComponent + ".log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    defer { try? handle.close() }

    let process = Process()
    process.executableURL = executable
    process.arguments = [
      "-typecheck", "-swift-version", "6", "-warnings-as-errors",
      "-I", modules.path, "-module-name", "Article", file.path,
    ]
    process.standardOutput = handle
    process.standardError = handle
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
      process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
      do {
        try process.run()
      } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
      }
    }
    let diagnostics = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    return Output(status: status, diagnostics: diagnostics)
  }

  private static func findSwiftc() -> URL? {
    let environment = ProcessInfo.processInfo.environment
    var candidates: [String] = []
    if let explicit = environment["SWIFTC"] { candidates.append(explicit) }
    for directory in (environment["PATH"] ?? "").split(separator: ":") {
      candidates.append("\(directory)/swiftc")
    }
    // Linux: the toolchain's runtime library is mapped into this process; swiftc is in its
    // `usr/bin`, three levels above `usr/lib/swift/linux/libswiftCore.so`.
    if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
      let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libswiftCore.so") }),
      let start = line.firstIndex(of: "/")
    {
      let library = URL(fileURLWithPath: String(line[start...]))
      let bin = library.deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("bin")
      candidates.append(bin.appendingPathComponent("swiftc").path)
    }
    return candidates.first(where: FileManager.default.isExecutableFile(atPath:))
      .map(URL.init(fileURLWithPath:))
  }

  /// Walks up from the test bundle (the `.xctest` bundle or executable) to the build directory.
  private static func findModules() -> URL? {
    let starts =
      [Bundle.main.bundleURL, Bundle.main.executableURL]
      + Bundle.allBundles.map(\.bundleURL)
    for start in starts.compactMap({ $0 }) {
      var directory = start
      for _ in 0..<5 {
        let modules = directory.appendingPathComponent("Modules")
        if FileManager.default.fileExists(
          atPath: modules.appendingPathComponent("StateStore.swiftmodule").path)
        {
          return modules
        }
        directory.deleteLastPathComponent()
      }
    }
    return nil
  }
}
