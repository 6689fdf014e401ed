import Foundation
import StatePersistence
import Testing

/// A `SnapshotFile`'s file opened in the inspector: one value, read by the file's own rules.
@Suite("Inspecting a SnapshotFile")
@MainActor
struct SnapshotFileTests {
  struct Settings: Codable, Equatable, Sendable {
    var theme = "dark"
    var fontSize = 14
  }

  /// Saves `Settings()` with `SnapshotFile` at schema version 3 and returns the file's path.
  private func saveSettings(in harness: InspectorHarness) async throws -> String {
    let url = harness.directory.appendingPathComponent("settings.json")
    let file = SnapshotFile<Settings>(url: url, options: .init(schemaVersion: 3))
    file.save(Settings())
    try await file.flush()
    return url.path
  }

  @Test("A valid SnapshotFile shows its value and schema version, as text and as JSON")
  func validFile() async throws {
    let harness = try InspectorHarness()
    let path = try await saveSettings(in: harness)
    let text = harness.run("--plain", path)
    #expect(text.status == 0)
    #expect(text.error == "")
    #expect(
      text.output == """
        StatePersistence snapshot, schema version 3
        {
          "fontSize": 14,
          "theme": "dark"
        }

        """)
    let json = harness.run("--json", path)
    #expect(json.status == 0)
    #expect(json.error == "")
    #expect(
      json.output
        == #"{"snapshot":"statepersistence-snapshot","schema":3,"seq":0,"#
        + #""value":{"fontSize":14,"theme":"dark"}}"# + "\n")
    let summary = harness.run("--summary", path)
    #expect(summary.status == 0, "\(summary.error)")
    #expect(summary.output.hasPrefix("entries: 0"), "\(summary.output)")
    let state = harness.run("--json", "--at", "0", path)
    #expect(state.status == 0, "\(state.error)")
    #expect(state.output == #"{"fontSize":14,"theme":"dark"}"# + "\n")
  }

  @Test("A flipped byte is damage, named by file, line and checksum, with exit 1")
  func damagedFile() async throws {
    let harness = try InspectorHarness()
    let path = try await saveSettings(in: harness)
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let value = try #require(bytes.firstIndex(of: UInt8(ascii: "d")))
    bytes[value] = UInt8(ascii: "D")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    for arguments in [["--plain"], ["--json"], ["--summary"]] {
      let result = harness.run(arguments: arguments + [path])
      #expect(result.status == 1, "\(arguments)")
      #expect(
        result.error
          == "statestore-inspect: \(path): damaged at line 3: the checksum does not match the "
          + "contents\n", "\(arguments)")
      #expect(!result.output.contains("Dark"), "a damaged value is never shown as the value")
    }
  }

  @Test("A snapshot written by a newer version says so, with exit 1")
  func newerFormat() throws {
    let harness = try InspectorHarness()
    let path = try harness.file(
      "future.json",
      #"{"format":"statepersistence-snapshot","version":2,"schema":1,"seq":0}"# + "\n"
        + #"{"theme":"dark"}"# + "\n" + #"{"checksum":"0000000000000000"}"# + "\n")
    let result = harness.run("--plain", path)
    #expect(result.status == 1)
    #expect(
      result.error
        == "statestore-inspect: \(path): written by a newer version of StatePersistence: "
        + "snapshot format version 2, this inspector reads version 1\n")
  }
}
