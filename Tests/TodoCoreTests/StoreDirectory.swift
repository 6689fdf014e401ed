import Foundation
import TerminalKit

@testable import TodoCore

/// A fresh temporary directory for one test's store, removed when released.
final class StoreDirectory {
  let path: String

  init() throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("todo-core-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// The journal's first segment, which holds every entry while no snapshot has started a new
  /// one.
  var journal: String { path + "/journal-1.jsonl" }
  var snapshot: String { path + "/snapshot.json" }

  func read(_ file: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: file))
  }

  func write(_ data: Data, to file: String) throws {
    try data.write(to: URL(fileURLWithPath: file))
  }

  /// Every file's name and bytes, to check that nothing changed.
  func contents() throws -> [String: Data] {
    var contents: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: path) {
      contents[name] = try read(path + "/" + name)
    }
    return contents
  }
}

extension TodoStorage {
  /// Stores `changes`, one at a time.
  func apply(_ changes: [AnyTodoChange]) async throws {
    for change in changes {
      try await store { _ in change }
    }
  }
}
