import Foundation
import Testing

/// Checks the convention for code blocks in the README and the DocC articles.
///
/// - Every fenced block names its language: `swift`, `sh` or `console`, `text`, `json`.
/// - The `swift` blocks of one document, concatenated in order, form a program that compiles
///   against the library modules (Swift 6, warnings are errors): later blocks may use what
///   earlier blocks declared, as a reader following the article would.
/// - A `swift` block that cannot compile on its own (a fragment shown inside a sentence) is
///   preceded by `<!-- not compiled: reason -->`. Prefer rewriting it so that it compiles.
@Suite("Documentation: the code blocks of the README and the articles compile")
struct CodeBlockTests {
  @Test("the README and every catalog's articles are found")
  func articlesAreFound() {
    let paths = Article.all.map(\.path)
    #expect(paths.contains("README.md"))
    for module in [
      "StateStore", "SideEffects", "Navigation", "ActionLog", "StatePersistence",
      "StateStoreTesting",
    ] {
      #expect(
        paths.contains("Sources/\(module)/\(module).docc/\(module).md"),
        "\(module) has no catalog landing page")
    }
  }

  @Test(
    "every code block names its language, and every opt-out gives a reason", arguments: Article.all)
  func blocksAreLabelled(article: Article) throws {
    let blocks = CodeBlock.blocks(in: try String(contentsOf: article.url, encoding: .utf8))
    for block in blocks where block.language.isEmpty {
      Issue.record(
        "\(article.path):\(block.fenceLine): a code block without a language (```swift, ```sh, ```text)"
      )
    }
    for block in blocks where block.notCompiledReason?.isEmpty == true {
      Issue.record(
        "\(article.path):\(block.fenceLine): `<!-- not compiled: -->` needs a reason")
    }
  }

  @Test(
    "the swift blocks of each document type-check against the library modules",
    arguments: Article.all)
  func swiftBlocksCompile(article: Article) async throws {
    let blocks = CodeBlock.blocks(in: try String(contentsOf: article.url, encoding: .utf8))
    let program = ArticleProgram(article: article, blocks: blocks)
    guard !program.blocks.isEmpty else { return }

    let compiler = try SwiftCompiler.locate()
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("DocumentationTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    // The file is named for the article so that the compiler's own messages name it too.
    let name = article.url.deletingPathExtension().lastPathComponent
    let file = scratch.appendingPathComponent("\(name).swift")
    try program.source.write(to: file, atomically: true, encoding: .utf8)

    let output = try await compiler.typecheck(file, scratch: scratch)
    if output.status == 0 { return }
    let errors = Diagnostic.errors(in: output.diagnostics, article: article)
    for error in errors {
      let block = program.block(containing: error.line).map { "block at line \($0.fenceLine)" }
      Issue.record(
        "\(article.path):\(error.line): \(block ?? "outside the blocks"): \(error.message)",
        sourceLocation: SourceLocation(
          fileID: "DocumentationTests/\(article.url.lastPathComponent)",
          filePath: article.url.path, line: error.line, column: error.column))
    }
    if errors.isEmpty {
      Issue.record("\(article.path): swiftc exited with \(output.status):\n\(output.diagnostics)")
    }
  }
}

/// An error the compiler reported in an article.
struct Diagnostic: Equatable {
  let line: Int
  let column: Int
  let message: String

  /// The `path:line:column: error: message` lines of `output` that point into `article`.
  static func errors(in output: String, article: Article) -> [Diagnostic] {
    let marker = "\(article.path):"
    return output.split(separator: "\n").compactMap { rawLine in
      let line = String(rawLine)
      guard let range = line.range(of: marker), line.contains(": error: ") else { return nil }
      let fields = line[range.upperBound...].split(
        separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3, let number = Int(fields[0]), let column = Int(fields[1]) else {
        return nil
      }
      let message = fields[2].trimmingCharacters(in: .whitespaces)
      return Diagnostic(
        line: number, column: column,
        message: message.hasPrefix("error: ") ? String(message.dropFirst(7)) : message)
    }
  }
}
