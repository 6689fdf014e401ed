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

  @Test("the checked-in test is what the shrinker writes (STATESTORE_REGENERATE=1 rewrites it)")
  func checkedInCopyIsInSync() throws {
    let written = try Self.written()
    if ProcessInfo.processInfo.environment["STATESTORE_REGENERATE"] == "1" {
      try written.write(to: Self.checkedIn, atomically: true, encoding: .utf8)
    }
    let checkedIn = try String(contentsOf: Self.checkedIn, encoding: .utf8)
    #expect(checkedIn == written)
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
