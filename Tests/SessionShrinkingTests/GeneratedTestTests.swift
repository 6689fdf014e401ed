import Foundation
import StateStore
import StateStoreTesting
import Testing

@Suite("The test a shrunk session writes: checked in, kept in sync, failing on the bug only")
@MainActor
struct GeneratedTestTests {
  /// The checked-in copy of the test the shrinker writes for ``ChoresSession``.
  static let checkedIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Generated/ShrunkChoresSession.swift")

  /// The test the shrinker writes now.
  static func written() throws -> String {
    let log = try ChoresSession.record()
    let shrunk = try PlantedBug.$isPlanted.withValue(true) {
      try SessionShrinker(registry: .chores()).shrink(
        log, until: ChoresSession.targetStaysDone())
    }
    return shrunk.testSource(TestSourceOptions(testName: "shrunkChoresSession"))
  }

  /// The checked-in copy of the test the shrinker writes for ``ImportSession``.
  static let checkedInImport = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Generated/ShrunkImportSession.swift")

  /// Compares `written` with the checked-in copy at `url`, after rewriting it when the
  /// environment says `STATESTORE_REGENERATE=1`.
  static func expectInSync(_ written: String, with url: URL) throws {
    if ProcessInfo.processInfo.environment["STATESTORE_REGENERATE"] == "1" {
      try written.write(to: url, atomically: true, encoding: .utf8)
    }
    let checkedIn = try String(contentsOf: url, encoding: .utf8)
    #expect(checkedIn == written)
  }

  @Test("the checked-in test is what the shrinker writes (STATESTORE_REGENERATE=1 rewrites it)")
  func checkedInCopyIsInSync() throws {
    try Self.expectInSync(try Self.written(), with: Self.checkedIn)
  }

  @Test("the checked-in test of the session with an effect is what the shrinker writes")
  func checkedInImportCopyIsInSync() async throws {
    let written = try await ImportSession.shrunk().testSource(ImportSession.options)
    try Self.expectInSync(written, with: Self.checkedInImport)
  }

  @Test("the written test of the session with an effect fails on the buggy code")
  func importFailsOnTheBuggyUpdater() async throws {
    await withKnownIssue("renaming a done chore reopens it") {
      try await PlantedBug.$isPlanted.withValue(true) {
        try await shrunkImportSession()
      }
    }
  }

  @Test("the written test of the session with an effect passes once the bug is fixed")
  func importPassesOnTheFixedUpdater() async throws {
    try await PlantedBug.$isPlanted.withValue(false) {
      try await shrunkImportSession()
    }
  }

  @Test("the written test fails on the code the session was recorded on")
  func failsOnTheBuggyUpdater() async throws {
    await withKnownIssue("renaming a done chore reopens it") {
      try await PlantedBug.$isPlanted.withValue(true) {
        try await shrunkChoresSession()
      }
    }
  }

  @Test("the written test passes once the bug is fixed")
  func passesOnTheFixedUpdater() async throws {
    try await PlantedBug.$isPlanted.withValue(false) {
      try await shrunkChoresSession()
    }
  }
}
