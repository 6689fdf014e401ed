import Foundation
import Testing

/// A program that must not compile, and what the compiler must say about it.
struct Misuse: Sendable, CustomTestStringConvertible {
  let name: String
  /// The misuse, written after ``Misuse/prelude``.
  let source: String
  /// What the first diagnostic on the misused line must contain: the fix.
  let message: String
  /// What no diagnostic may contain: the wrong direction the compiler pointed to before.
  let misleading: String

  var testDescription: String { name }

  /// A state, an effect and two kinds of dependencies, shared by every snippet.
  static let prelude = """
    import Navigation
    import SideEffects

    struct AppState: State {}
    struct Refresh: SideEffect {
      func sideEffect(_ context: SideEffectContext<AppState, Void>) async throws {}
    }
    struct Routed: NavigationProvider {
      let navigator: Navigator
    }

    """

  static let all = [
    Misuse(
      name: "a navigation request on a store without a navigator",
      source: """
        @MainActor func open(_ store: Store<AppState, Void>) async throws {
          try await store.dispatch(Show("detail"))
        }
        """,
      message: "dependencies must conform to `NavigationProvider`",
      misleading: "conform to 'SideEffect'"),
    Misuse(
      name: "a navigation request from an effect of a store without a navigator",
      source: """
        struct Open: SideEffect {
          func sideEffect(_ context: SideEffectContext<AppState, Void>) async throws {
            try await context.dispatch(Hide("detail"))
          }
        }
        """,
      message: "dependencies must conform to `NavigationProvider`",
      misleading: "conform to 'SideEffect'"),
  ]

  /// The fixes the messages name, which must compile.
  static let fixes = """
    @MainActor func onTap(_ store: Store<AppState, Void>) {
      store.launch(Refresh())
    }
    @MainActor func open(_ store: Store<AppState, Routed>) async throws {
      try await store.dispatch(Show("detail"))
    }
    struct Open: SideEffect {
      func sideEffect(_ context: SideEffectContext<AppState, Routed>) async throws {
        try await context.dispatch(Hide("detail"))
      }
    }
    """
}

/// The compiler's messages for the usual first-week mistakes name the fix: each misuse is
/// type-checked with the toolchain's `swiftc` against the built modules, as the articles are.
@Suite("Compiler guidance: misuses fail with a message that names the fix")
struct CompilerGuidanceTests {
  /// Type-checks `source` in a scratch directory and returns what the compiler said.
  func typecheck(_ source: String, named name: String) async throws -> SwiftCompiler.Output {
    let compiler = try SwiftCompiler.locate()
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("CompilerGuidanceTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let file = scratch.appendingPathComponent("\(name).swift")
    try source.write(to: file, atomically: true, encoding: .utf8)
    return try await compiler.typecheck(file, scratch: scratch)
  }

  @Test("the misuse fails with the message", arguments: Misuse.all)
  func misuseNamesTheFix(misuse: Misuse) async throws {
    let output = try await typecheck(Misuse.prelude + misuse.source, named: "Misuse")
    #expect(output.status != 0, "\(misuse.name) compiled")
    let diagnostics = output.diagnostics.split(separator: "\n")
      .filter { $0.contains(": error: ") }
    #expect(
      diagnostics.first?.contains(misuse.message) == true,
      "expected “\(misuse.message)”, got:\n\(output.diagnostics)")
    #expect(
      !output.diagnostics.contains(misuse.misleading),
      "the compiler still says “\(misuse.misleading)”:\n\(output.diagnostics)")
  }

  @Test("the fixes the messages name compile")
  func fixesCompile() async throws {
    let output = try await typecheck(Misuse.prelude + Misuse.fixes, named: "Fixes")
    #expect(output.status == 0, "\(output.diagnostics)")
  }

  /// Top-level code keeps awaiting a dispatched effect; why no overload of ours speaks up in
  /// synchronous code.
  ///
  /// The compiler ranks overloads for top-level code as for synchronous code. A synchronous `dispatch`
  /// overload that would win in a synchronous function (to say "use `launch`, or `await` the
  /// dispatch") would also win over `try await store.dispatch(effect)` in a script or
  /// `main.swift`, which would then start the effect without awaiting it. An unavailable
  /// overload never wins over an available one, so it would never show its message. This test
  /// keeps top-level code awaiting, with no "no 'async' operations" warning.
  @Test("top-level code that awaits an effect's dispatch still awaits it")
  func topLevelAwaitsTheEffect() async throws {
    let source =
      Misuse.prelude + """
        let store = Store<AppState, Void>()
        try await store.dispatch(Refresh())

        """
    let output = try await typecheck(source, named: "TopLevel")
    #expect(output.status == 0, "\(output.diagnostics)")
  }

  @Test("a side effect dispatched from synchronous code does not compile")
  func synchronousDispatchFails() async throws {
    let source =
      Misuse.prelude + """
        @MainActor func onTap(_ store: Store<AppState, Void>) {
          store.dispatch(Refresh())
        }

        """
    let output = try await typecheck(source, named: "Synchronous")
    #expect(output.status != 0)
    #expect(
      output.diagnostics.contains("'async' call in a function that does not support concurrency"))
  }
}
