import Foundation

/// A fenced code block of a Markdown document.
struct CodeBlock: Equatable, Sendable {
  /// The fence's info string: `swift`, `sh`, `text`, or empty when the fence names none.
  let language: String
  /// The line of the opening fence, counting from 1.
  let fenceLine: Int
  /// The block's lines, without the fences and without the fence's indentation.
  let lines: [String]
  /// The reason given in a `<!-- not compiled: reason -->` comment just before the fence; `nil`
  /// when there is none.
  let notCompiledReason: String?

  /// The line of the block's first line of code.
  var firstLine: Int { fenceLine + 1 }

  /// The lines of the block, `first` through `first + lines.count - 1` in the document.
  var lineRange: ClosedRange<Int> { firstLine...max(firstLine, fenceLine + lines.count) }

  /// The comment that exempts the next `swift` block from compilation, with its reason.
  ///
  /// Keep such blocks few: a block that a reader might copy should compile. The comment must be
  /// the last non-blank line before the fence.
  static let notCompiledMarker = "<!-- not compiled:"

  /// The fenced code blocks of `markdown`, in order.
  ///
  /// A fence is three or more backticks, possibly indented (inside a list item); the block ends
  /// at the next fence of at least as many backticks. An unterminated block runs to the end of
  /// the document.
  ///
  /// - Complexity: O(length of `markdown`).
  static func blocks(in markdown: String) -> [CodeBlock] {
    let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var blocks: [CodeBlock] = []
    var index = 0
    var lastNonBlank: String?
    while index < lines.count {
      let line = lines[index]
      guard let opening = Fence(line) else {
        if !line.allSatisfy(\.isWhitespace) { lastNonBlank = line }
        index += 1
        continue
      }
      var body: [String] = []
      var end = index + 1
      while end < lines.count {
        if let closing = Fence(lines[end]), closing.info.isEmpty,
          closing.ticks >= opening.ticks
        {
          break
        }
        body.append(String(lines[end].dropFirst(min(opening.indent, leadingSpaces(lines[end])))))
        end += 1
      }
      blocks.append(
        CodeBlock(
          language: opening.info, fenceLine: index + 1, lines: body,
          notCompiledReason: lastNonBlank.flatMap(reason(fromComment:))))
      lastNonBlank = nil
      index = end + 1
    }
    return blocks
  }

  /// The reason in `<!-- not compiled: reason -->`, or `nil` when `line` is not that comment.
  private static func reason(fromComment line: String) -> String? {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix(notCompiledMarker), trimmed.hasSuffix("-->") else { return nil }
    return String(trimmed.dropFirst(notCompiledMarker.count).dropLast(3))
      .trimmingCharacters(in: .whitespaces)
  }

  private static func leadingSpaces(_ line: String) -> Int {
    line.prefix(while: { $0 == " " }).count
  }

  /// An opening or closing code fence.
  private struct Fence {
    let indent: Int
    let ticks: Int
    let info: String

    init?(_ line: String) {
      let indent = CodeBlock.leadingSpaces(line)
      let rest = line.dropFirst(indent)
      let ticks = rest.prefix(while: { $0 == "`" }).count
      guard ticks >= 3 else { return nil }
      self.indent = indent
      self.ticks = ticks
      self.info = rest.dropFirst(ticks).trimmingCharacters(in: .whitespaces)
    }
  }
}
