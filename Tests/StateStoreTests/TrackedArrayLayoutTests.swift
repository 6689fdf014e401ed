import StateStore
import Testing

@Suite("TrackedArray: the layout stamp moves only when elements are added, removed or moved")
struct TrackedArrayLayoutTests {
  struct Row: Identifiable, Equatable, Sendable {
    var id: Int
    var text = ""
  }

  @Test("Changing elements in place keeps the layout; every other mutation renews it")
  func layoutStamp() {
    var rows = TrackedArray((0..<5).map { Row(id: $0) })
    var layout = rows.currentLayoutStamp
    rows[id: 2]?.text = "x"
    rows.upsert(Row(id: 3, text: "y"))
    rows.modify(at: 0) { $0.text = "z" }
    #expect(rows.currentLayoutStamp == layout, "in place")
    let mutations: [(String, (inout TrackedArray<Row>) -> Void)] = [
      ("append", { $0.append(Row(id: 9)) }),
      ("insert", { $0.insert(Row(id: 10), at: 0) }),
      ("remove", { $0.remove(id: 10) }),
      ("move", { $0.move(id: 4, to: 0) }),
      ("sort", { $0.sort { $0.id < $1.id } }),
      ("removeAll(where:)", { $0.removeAll { $0.id == 9 } }),
      ("change of id", { $0.modify(at: 0) { $0.id = 20 } }),
    ]
    for (name, mutate) in mutations {
      mutate(&rows)
      #expect(rows.currentLayoutStamp != layout, "\(name)")
      layout = rows.currentLayoutStamp
    }
  }
}
