import Foundation
import Testing

/// A Markdown document of the package whose code blocks the tests check: the README or a DocC
/// article.
struct Article: Sendable, CustomTestStringConvertible {
  /// The path from the package root, such as `Sources/StateStore/StateStore.docc/GettingStarted.md`.
  let path: String
  /// The absolute location of the file.
  let url: URL

  var testDescription: String { path }

  /// The package root: three levels above this file (`Tests/DocumentationTests/Article.swift`).
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The README and every article of every DocC catalog in `Sources`, in path order.
  ///
  /// Found on disk rather than listed, so that a new article is checked without editing the
  /// tests. The app's documents in `Docs/` are not here: they quote the app's internal source,
  /// which is not an API a reader could compile against.
  static let all: [Article] = {
    var paths = ["README.md"]
    let sources = packageRoot.appendingPathComponent("Sources")
    let enumerator = FileManager.default.enumerator(
      at: sources, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
      let components = url.pathComponents
      guard url.pathExtension == "md", components.contains(where: { $0.hasSuffix(".docc") })
      else { continue }
      let relative = components.drop(while: { $0 != "Sources" }).joined(separator: "/")
      paths.append(relative)
    }
    return paths.sorted().map { Article(path: $0, url: packageRoot.appendingPathComponent($0)) }
  }()
}
