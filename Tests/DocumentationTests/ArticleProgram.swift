/// The `swift` code blocks of one article, concatenated in order into one Swift file.
///
/// Each block is preceded by a `#sourceLocation` directive, so the compiler's diagnostics name
/// the article and its own line numbers.
struct ArticleProgram {
  /// The blocks that are compiled.
  let blocks: [CodeBlock]
  /// The program's source.
  let source: String

  init(article: Article, blocks allBlocks: [CodeBlock]) {
    blocks = allBlocks.filter { $0.language == "swift" && $0.notCompiledReason == nil }
    var source = ""
    for block in blocks {
      source += "#sourceLocation(file: \"\(article.path)\", line: \(block.firstLine))\n"
      source += block.lines.joined(separator: "\n") + "\n"
    }
    source += "#sourceLocation()\n"
    self.source = source
  }

  /// The block holding `line` of the article.
  func block(containing line: Int) -> CodeBlock? {
    blocks.first { $0.lineRange.contains(line) }
  }
}
