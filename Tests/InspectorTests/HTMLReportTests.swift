import Foundation
import Inspector
import Testing

@Suite("statestore-inspect --html: the report in headless Chromium")
struct HTMLReportTests {
  /// Debian's `chromium`, which `.ci/run` installs when it is missing.
  static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// The page at `path` as Chromium leaves it after its script ran, opened at `fragment`.
  private func dom(
    _ harness: InspectorHarness, _ path: String, fragment: String
  ) throws -> String {
    let chromium = try #require(Self.chromium.map { URL(fileURLWithPath: $0) })
    let profile = harness.directory.appendingPathComponent("profile-\(UUID().uuidString)").path
    let result = try harness.runProcess(
      chromium,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)",
        "--virtual-time-budget=5000", "--dump-dom", "file://\(path)#\(fragment)",
      ])
    #expect(result.status == 0, "\(result.error)")
    return result.output
  }

  @Test(
    "Clicking an entry shows its payload, its diff and the state after it",
    .enabled(if: chromium != nil))
  func clickShowsEntry() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("shop.jsonl", shopLog)
    let page = harness.directory.appendingPathComponent("report.html").path
    let written = harness.run("--html", page, log)
    #expect(written.status == 0, "\(written.error)")
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(!html.contains("http://") && !html.contains("https://"), "nothing from the network")
    #expect(!html.contains("<script src") && !html.contains("<link"))
    let shown = try dom(harness, page, fragment: "click=2")
    #expect(shown.contains(#"data-selected="2""#))
    #expect(shown.contains(#"<h2 id="detail-title">Entry 2: account Rename</h2>"#))
    #expect(shown.contains(#"<li class="replace">replace /user/name: "ann" → "bo"</li>"#))
    #expect(shown.contains(#"<tr data-index="2" class="entry selected" data-seq="2">"#))
    let state = try #require(
      shown.range(of: #"<pre id="detail-state">"#).map { shown[$0.upperBound...].prefix(200) })
    #expect(
      state.hasPrefix("{\n  \"cart\": [\n    \"tea\"\n  ],\n  \"user\": {\n    \"name\": \"bo\""))
    let later = try dom(harness, page, fragment: "click=4")
    #expect(later.contains(#"<li class="remove">remove /cart/0: "tea"</li>"#))
    #expect(
      later.contains("\"cart\": [\n    \"milk\"\n  ]"), "the state rebuilt through every diff")
  }

  @Test(
    "Items named by id, and moves, show and rebuild the state, in logs of both versions",
    .enabled(if: chromium != nil))
  func identityPaths() throws {
    let harness = try InspectorHarness()
    for log in [ShopFixtures.version1, ShopFixtures.version2] {
      let page = harness.directory.appendingPathComponent("report-\(UUID().uuidString).html").path
      #expect(harness.run("--html", page, log).status == 0)
      let last = try dom(harness, page, fragment: "click=8")
      #expect(
        last.contains(
          "\"items\": [\n    {\n      \"done\": false,\n      \"id\": 3,\n      \"name\": \"rye bread\""
        ),
        "\(log): the state rebuilt through the moves")
      guard log == ShopFixtures.version2 else { continue }
      let sort = try dom(harness, page, fragment: "click=5")
      #expect(sort.contains(#"<li class="move">move /items[id=3] from 2 to 0</li>"#))
      let removal = try dom(harness, page, fragment: "click=7")
      #expect(removal.contains(#"<li class="remove">remove /items[id=1] at 2: {"#))
    }
  }

  @Test("Filters hide the entries that do not match", .enabled(if: chromium != nil))
  func filters() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("shop.jsonl", shopLog)
    let page = harness.directory.appendingPathComponent("report.html").path
    #expect(harness.run("--html", page, log).status == 0)
    let shown = try dom(harness, page, fragment: "type=AddItem")
    #expect(shown.contains(#"<tr data-index="1" class="entry" data-seq="1">"#))
    #expect(shown.contains(#"<tr data-index="2" class="entry hidden" data-seq="2">"#))
    #expect(shown.contains(#"<span id="shown">2 entries shown</span>"#))
  }

  @Test(
    "Text from the log cannot break out of the page, and damage is shown",
    .enabled(if: chromium != nil))
  func hostileAndDamaged() throws {
    let harness = try InspectorHarness()
    let log = try harness.file(
      "hostile.jsonl",
      #"{"format":"statestore-action-log","version":1}"# + "\n"
        + #"{"seq":1,"type":"</script><img src=x onerror=alert(1)>","payload":{}}"# + "\n"
        + "garbage\n")
    let page = harness.directory.appendingPathComponent("report.html").path
    let written = harness.run("--html", page, log)
    #expect(written.status == 1)
    #expect(written.error.contains("line 3"))
    let html = try String(contentsOfFile: page, encoding: .utf8)
    #expect(!html.contains("</script><img"))
    let shown = try dom(harness, page, fragment: "click=1")
    #expect(!shown.contains("<img"))
    #expect(shown.contains("&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"))
    #expect(shown.contains("Damaged log: line 3: not JSON"))
  }
}
