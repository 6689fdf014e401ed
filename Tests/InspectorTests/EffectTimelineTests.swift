import Foundation
import Inspector
import Testing

/// A session whose search effect was cancelled by a newer one, which then found `milk`.
let effectsLog = """
  {"format":"statestore-action-log","version":2,"state":"Shop"}
  {"checkpoint":0,"state":{"cart":[],"results":[]}}
  {"seq":1,"type":"SetQuery","cause":"user: type","payload":{"query":"m"},"diff":[]}
  {"effect":1,"start":"Search","after":1,"id":"search","site":"Shop/SearchField.swift:31","cause":"user: type"}
  {"seq":2,"type":"SetQuery","cause":"user: type","payload":{"query":"mi"},"diff":[]}
  {"effect":2,"start":"Search","after":2,"id":"search","site":"Shop/SearchField.swift:31","cause":"user: type"}
  {"effect":1,"end":"cancelled","by":"a newer Search (cancelInFlight)","duration":0.120000}
  {"effect":2,"value":"Array<String>","data":["milk"]}
  {"seq":3,"type":"SetResults","cause":"user: type › Search","effect":2,"payload":{"results":["milk"]},"diff":[{"op":"add","path":"/results/0","value":"milk"}]}
  {"effect":2,"end":"finished","duration":0.250000}

  """

@Suite("statestore-inspect: side effects in the timeline, --json and the HTML page")
struct EffectTimelineTests {
  @Test("The timeline shows each effect under the entry it started after, with its end and values")
  func timeline() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("effects.jsonl", effectsLog)
    let result = harness.run(log)
    #expect(result.status == 0, "\(result.error)")
    let lines = result.output.split(separator: "\n").map(String.init)
    try #require(lines.count == 9)
    #expect(lines[1].hasPrefix("1 "))
    #expect(
      lines[2]
        == "  ↳ effect 1 Search started at Shop/SearchField.swift:31 (id search, cause user: type)")
    #expect(lines[3].hasPrefix("2 "))
    #expect(lines[5] == "  ↳ effect 1 cancelled by a newer Search (cancelInFlight) in 0.120000 s")
    #expect(lines[6] == #"  ↳ effect 2 value Array<String>: ["milk"]"#)
    #expect(lines[8] == "  ↳ effect 2 finished in 0.250000 s")
  }

  @Test("The terminal interface counts only the entries, and an entry names the effect behind it")
  func browser() {
    var ui = BrowserHarness(log: effectsLog)
    #expect(ui.state.visible.count == 3)
    ui.press(.down, .down, .enter)
    #expect(ui.lines()[1].hasPrefix("seq 3 · SetResults · cause user: type › Search · effect 2 · "))
  }

  @Test("An entry's effects section lists the effect lines written after it, before the next entry")
  func browserEffects() {
    var ui = BrowserHarness(log: effectsLog, width: 100)
    ui.press(.down, .enter, .character("e"))
    var lines = ui.lines()
    #expect(lines[2] == " payload   diff   state  [effects]")
    #expect(
      lines[3]
        == "> effect 2 Search started at Shop/SearchField.swift:31 (id search, cause user: type)")
    #expect(lines[4] == "  effect 1 cancelled by a newer Search (cancelInFlight) in 0.120000 s")
    #expect(lines[5] == #"  effect 2 value Array<String>: ["milk"]"#)
    #expect(!ui.text().contains("finished"), "the next entry's effect lines are its own")
    ui.press(.character("]"))
    lines = ui.lines()
    #expect(lines[1].hasPrefix("seq 3 · SetResults"))
    #expect(lines[3] == "> effect 2 finished in 0.250000 s", "the last entry's, to the end")
    #expect(lines[4].trimmingCharacters(in: .whitespaces).isEmpty)
    ui.press(.tab)
    #expect(ui.lines()[2].contains("[payload]"), "tab goes round")
  }

  @Test("An entry with no effect after it says so")
  func browserNoEffects() {
    var ui = BrowserHarness(log: shopLog)
    ui.press(.enter, .character("e"))
    #expect(ui.lines()[3] == "> no side effect recorded after this entry")
  }

  @Test("--json gives each effect line as an object with its event")
  func json() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("effects.jsonl", effectsLog)
    let result = harness.run("--json", log)
    #expect(result.status == 0, "\(result.error)")
    let lines = result.output.split(separator: "\n").map(String.init)
    try #require(lines.count == 9)
    #expect(
      lines[2]
        == #"{"effect":1,"line":4,"event":"start","type":"Search","after":1,"id":"search","site":"Shop/SearchField.swift:31","cause":"user: type"}"#
    )
    #expect(
      lines[5]
        == #"{"effect":1,"line":7,"event":"end","end":"cancelled","by":"a newer Search (cancelInFlight)","duration":0.120000}"#
    )
    #expect(
      lines[6] == #"{"effect":2,"line":8,"event":"value","label":"Array<String>","data":["milk"]}"#)
    let summary = harness.run("--summary", log)
    #expect(
      summary.output.hasPrefix(
        "entries: 3 (seq 1…3), unrecorded: 0, with diffs: 3, checkpoints: 1, effects: 2\n"))
  }

  @Test("A damaged effect line stops the timeline there, naming the line")
  func damagedEffectLine() throws {
    let harness = try InspectorHarness()
    let damaged = effectsLog.replacingOccurrences(
      of: #"{"effect":2,"end":"finished","duration":0.250000}"#,
      with: #"{"effect":2,"end":"exploded"}"#)
    let log = try harness.file("damaged-effects.jsonl", damaged)
    let result = harness.run(log)
    #expect(result.status == 1)
    #expect(result.error.contains("damaged at line 10"))
    #expect(result.error.contains("\"end\" must be"))
    #expect(result.output.split(separator: "\n").count == 8, "everything before the damage")
  }

  @Test(
    "The HTML page shows each effect under its entry, and the states still rebuild",
    .enabled(if: HTMLReportTests.chromium != nil))
  func html() throws {
    let harness = try InspectorHarness()
    let log = try harness.file("effects.jsonl", effectsLog)
    let page = harness.directory.appendingPathComponent("effects.html").path
    let written = harness.run("--html", page, log)
    #expect(written.status == 0, "\(written.error)")
    let chromium = try #require(HTMLReportTests.chromium.map { URL(fileURLWithPath: $0) })
    let profile = harness.directory.appendingPathComponent("profile").path
    let shown = try harness.runProcess(
      chromium,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)",
        "--virtual-time-budget=5000", "--dump-dom", "file://\(page)#click=3",
      ]
    ).output
    #expect(shown.contains("3 entries, 1 checkpoints, 2 effects"))
    #expect(
      shown.contains(
        #"<tr class="effect" data-effect="1"><td colspan="6">↳ effect 1 Search: cancelled by a newer Search (cancelInFlight) in 0.12 s · id search · cause user: type · at Shop/SearchField.swift:31</td></tr>"#
      ))
    #expect(shown.contains(#"· Array&lt;String&gt; = ["milk"]</td></tr>"#))
    #expect(shown.contains("dispatched by effect 2"), "entry 3's detail names its effect")
    let firstEffect = try #require(shown.range(of: #"data-effect="1""#)).lowerBound
    let secondEntry = try #require(shown.range(of: #"data-seq="2""#)).lowerBound
    #expect(firstEffect < secondEntry, "effect 1 under entry 1")
    #expect(shown.contains("\"results\": [\n    \"milk\"\n  ]"), "the state after entry 3")
  }
}
