import Foundation
import Inspector
import Testing

/// Every view shows a time, and a duration, to the same millisecond.
@Suite("Times in every view")
@MainActor
struct TimeTextTests {
  /// Two entries 5.2 ms apart, the second at 100.0056 s: 00:01:40.006 to the nearest
  /// millisecond, 6 ms after the first (shown as 00:01:40.000).
  static let log = """
    {"format":"statestore-action-log","version":1}
    {"seq":1,"type":"Tick","time":100.0004,"payload":{}}
    {"seq":2,"type":"Tock","time":100.0056,"payload":{}}

    """

  @Test("A time of x.6 ms shows the same millisecond in the text, summary, HTML and TUI")
  func sameMillisecond() throws {
    let harness = try InspectorHarness()
    let path = try harness.file("times.jsonl", Self.log)
    let timeline = harness.run("--plain", path)
    #expect(timeline.status == 0, "\(timeline.error)")
    #expect(timeline.output.contains("2  1970-01-01T00:01:40.006Z  -  Tock"), "\(timeline.output)")
    #expect(timeline.output.contains("1  1970-01-01T00:01:40.000Z  -  Tick"), "\(timeline.output)")
    let summary = harness.run("--summary", path)
    #expect(summary.status == 0, "\(summary.error)")
    #expect(
      summary.output.contains(
        "time span: 1970-01-01T00:01:40.000Z … 1970-01-01T00:01:40.006Z (0.006 s)"),
      "\(summary.output)")
    #expect(summary.output.contains("gap: 0.006 s between seq 1 and 2"), "\(summary.output)")
    let json = harness.run("--summary", "--json", path)
    #expect(json.output.contains(#""timeSpan":{"first":100.000,"last":100.006,"seconds":0.006}"#))
    let page = harness.directory.appendingPathComponent("times.html")
    let html = harness.run("--html", page.path, path)
    #expect(html.status == 0, "\(html.error)")
    let text = try String(contentsOf: page, encoding: .utf8)
    #expect(text.contains(#""at":"1970-01-01T00:01:40.006Z""#))
    #expect(!text.contains("toISOString"), "the page shows the time it is given")
    var ui = BrowserHarness(log: Self.log)
    #expect(ui.line(containing: "Tock")?.contains("00:01:40.006") == true, "\(ui.text())")
    ui.press(.end, .enter)
    #expect(
      ui.lines()[1].hasPrefix("seq 2 · Tock · 1970-01-01T00:01:40.006Z · line 3"), "\(ui.text())")
  }
}
