import ActionLog
import StateStore
import Testing

private struct Item: Identifiable, Sendable, Equatable {
  var id: Int
  var title: String
  var done = false
}

private enum Phase: Equatable {
  case idle
  case loading(progress: Double)
  case loaded(count: Int, source: String)
}

private final class Box {
  var value: Int
  init(_ value: Int) { self.value = value }
}

private struct Sample {
  var title = "a"
  var items: [Item] = []
  var tracked = TrackedArray<Item>()
  var tags: Set<String> = []
  var scores: [String: Int] = [:]
  var note: String?
  var phase = Phase.idle
  var box = Box(1)
  var pair = (1, "x")
}

@Suite("StateDiff")
struct StateDiffTests {
  @Test("Equal values give no lines")
  func equalValuesGiveNothing() {
    let sample = Sample(items: [Item(id: 1, title: "one")], tags: ["x"], scores: ["a": 1])
    #expect(StateDiff.lines(from: sample, to: sample).isEmpty)
  }

  @Test("Scalar fields show old and new values, strings quoted")
  func scalarFields() {
    var new = Sample()
    new.title = "b"
    #expect(StateDiff.lines(from: Sample(), to: new) == [#"title: "a" → "b""#])
  }

  @Test("Array elements are compared by index, with additions and removals")
  func arraysByIndex() {
    let old = Sample(items: [Item(id: 1, title: "one"), Item(id: 2, title: "two")])
    var new = old
    new.items[1].done = true
    new.items.append(Item(id: 3, title: "three"))
    #expect(
      StateDiff.lines(from: old, to: new) == [
        "items[1].done: false → true",
        #"items[2]: added Item(id: 3, title: "three", done: false)"#,
      ])
    #expect(
      StateDiff.lines(from: new, to: old) == [
        "items[1].done: true → false",
        #"items[2]: removed Item(id: 3, title: "three", done: false)"#,
      ])
  }

  @Test("A TrackedArray shows as its elements, not its bookkeeping")
  func trackedArrayAsElements() {
    var old = Sample()
    old.tracked.append(Item(id: 7, title: "seven"))
    var new = old
    new.tracked[id: 7]?.title = "SEVEN"
    #expect(StateDiff.lines(from: old, to: new) == [#"tracked[0].title: "seven" → "SEVEN""#])
  }

  @Test("Sets list removed and added elements sorted by description")
  func setsByElement() {
    let old = Sample(tags: ["b", "c", "z"])
    let new = Sample(tags: ["a", "c", "d"])
    #expect(
      StateDiff.lines(from: old, to: new) == [
        #"tags: removed "b""#, #"tags: removed "z""#, #"tags: added "a""#, #"tags: added "d""#,
      ])
  }

  @Test("Dictionaries are compared by key, sorted")
  func dictionariesByKey() {
    let old = Sample(scores: ["ann": 1, "bob": 2, "cid": 3])
    let new = Sample(scores: ["bob": 5, "ann": 1, "dan": 4])
    #expect(
      StateDiff.lines(from: old, to: new) == [
        #"scores["bob"]: 2 → 5"#, #"scores["cid"]: removed 3"#, #"scores["dan"]: added 4"#,
      ])
  }

  @Test("Optionals show nil on either side")
  func optionals() {
    var new = Sample()
    new.note = "hi"
    #expect(StateDiff.lines(from: Sample(), to: new) == [#"note: nil → "hi""#])
    #expect(StateDiff.lines(from: new, to: Sample()) == [#"note: "hi" → nil"#])
    var changed = new
    changed.note = "ho"
    #expect(StateDiff.lines(from: new, to: changed) == [#"note: "hi" → "ho""#])
  }

  @Test("Enums report case changes whole and associated values by field")
  func enums() {
    var loading = Sample()
    loading.phase = .loading(progress: 0.5)
    #expect(
      StateDiff.lines(from: Sample(), to: loading) == ["phase: .idle → .loading(progress: 0.5)"])
    var first = Sample()
    first.phase = .loaded(count: 1, source: "disk")
    var second = Sample()
    second.phase = .loaded(count: 2, source: "disk")
    #expect(StateDiff.lines(from: first, to: second) == ["phase.loaded.count: 1 → 2"])
  }

  @Test("Classes and tuples are walked by field")
  func classesAndTuples() {
    var new = Sample()
    new.box = Box(2)
    new.pair = (1, "y")
    #expect(
      StateDiff.lines(from: Sample(), to: new) == ["box.value: 1 → 2", #"pair.1: "x" → "y""#])
  }

  @Test("Root values that are scalars or arrays are named self")
  func rootValues() {
    #expect(StateDiff.lines(from: 1, to: 2) == ["self: 1 → 2"])
    #expect(StateDiff.lines(from: [1, 2], to: [1, 3]) == ["self[1]: 2 → 3"])
  }

  @Test("The line cap keeps huge diffs readable")
  func lineCap() {
    let old = Array(0..<1000)
    let new = old.map { $0 + 1 }
    let lines = StateDiff.lines(from: old, to: new, options: .init(maximumLines: 5))
    #expect(lines.count == 6)
    #expect(lines.first == "self[0]: 0 → 1")
    #expect(lines.last == "… more differences not shown (limit: 5 lines)")
  }

  @Test("The depth cap reports deeper differences as a whole")
  func depthCap() {
    let old = Sample(items: [Item(id: 1, title: "one")])
    var new = old
    new.items[0].done = true
    let lines = StateDiff.lines(from: old, to: new, options: .init(maximumDepth: 1))
    #expect(
      lines == [
        #"items: [Item(id: 1, title: "one", done: false)] → [Item(id: 1, title: "one", done: true)]"#
      ])
  }

  @Test("Rendered values are cut at the length cap")
  func valueLengthCap() {
    let rendered = StateDiff.render(Array(0..<100_000), maximumLength: 20)
    #expect(rendered == "[0, 1, 2, 3, 4, 5, …")
    #expect(rendered.count == 20)
  }

  @Test("A difference that == sees but the mirror hides is still reported")
  func equatableOnlyDifference() {
    struct Opaque: Equatable, CustomReflectable {
      var secret: Int
      var customMirror: Mirror { Mirror(self, children: [:]) }
    }
    #expect(StateDiff.lines(from: Opaque(secret: 1), to: Opaque(secret: 2)).count == 1)
  }

  @Test("A large state diff finds the one changed element")
  func largeState() {
    let old = Sample(items: (0..<5000).map { Item(id: $0, title: "item \($0)") })
    var new = old
    new.items[4321].title = "changed"
    #expect(StateDiff.lines(from: old, to: new) == [#"items[4321].title: "item 4321" → "changed""#])
  }
}
