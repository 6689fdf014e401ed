import Foundation
import Testing

@testable import StateStore

@Suite("TrackedArray: identified elements with a change journal")
struct TrackedArrayTests {
  private func changes(_ array: TrackedArray<Todo>, since stamp: UInt64) -> [Int]? {
    var ids: [Int] = []
    return array.visitChanges(since: stamp) { ids.append($0) } ? ids : nil
  }

  @Test("ids are unique: append refuses a duplicate, upsert replaces it in place")
  func uniqueIDs() {
    var array: TrackedArray<Todo> = [Todo(id: 1, title: "a"), Todo(id: 2, title: "b")]
    let appended = array.append(Todo(id: 1, title: "dup"))
    let upsertAppended = array.upsert(Todo(id: 1, title: "A"))
    #expect(!appended && !upsertAppended)
    #expect(array.map(\.title) == ["A", "b"])
    let inserted = array.insert(Todo(id: 0, title: "zero"), at: 0)
    #expect(inserted)
    #expect(array.ids == [0, 1, 2])
    #expect(array.index(id: 2) == 2)
    let literal: TrackedArray<Todo> = [Todo(id: 1, title: "x"), Todo(id: 1, title: "y")]
    #expect(literal.map(\.title) == ["y"])
  }

  @Test("removal, sorting and moving keep the id index right")
  func indexStaysRight() {
    var array = makeTodos(6)
    array.remove(id: 2)
    array.removeAll { $0.id == 4 }
    #expect(array.ids == [0, 1, 3, 5])
    array.sort { $0.id > $1.id }
    #expect(array.ids == [5, 3, 1, 0])
    array.move(id: 0, to: 0)
    #expect(array.ids == [0, 5, 3, 1])
    for (position, todo) in array.enumerated() { #expect(array.index(id: todo.id) == position) }
    array[id: 5] = nil
    #expect(array.ids == [0, 3, 1])
    array[id: 9] = Todo(id: 9, title: "new")
    #expect(array.ids == [0, 3, 1, 9])
  }

  @Test("changing an element's id through the subscript re-indexes it")
  func changingID() {
    var array = makeTodos(3)
    array[id: 0]?.id = 2
    #expect(array.ids == [1, 2])
    #expect(array[id: 2]?.title == "todo number 0")
    array.modify(at: 0) { $0.id = 7 }
    #expect(Set(array.ids) == [2, 7])
    #expect(array.count == 2)
  }

  @Test("the journal names each changed id since an earlier stamp")
  func journal() {
    var array = makeTodos(5)
    let start = array.currentStamp
    array[id: 1]?.done = true
    array[id: 3]?.title = "x"
    #expect(changes(array, since: start) == [1, 3])
    let middle = array.currentStamp
    array.remove(id: 4)
    #expect(changes(array, since: middle) == [4])
    #expect(changes(array, since: array.currentStamp) == [])
    let other = makeTodos(5)
    #expect(changes(array, since: other.currentStamp) == nil, "another array's history")
    for _ in 0..<100 { array[id: 0]?.done.toggle() }
    #expect(changes(array, since: middle) == nil, "too old for the journal")
  }

  @Test("equality, hashing and Codable see only the elements")
  func valueSemantics() throws {
    var a = makeTodos(3)
    let b = makeTodos(3)
    a[id: 1]?.done.toggle()
    a[id: 1]?.done.toggle()
    #expect(a == b)
    let data = try JSONEncoder().encode(a)
    #expect(try JSONDecoder().decode([Todo].self, from: data) == a.elements)
    #expect(try JSONDecoder().decode(TrackedArray<Todo>.self, from: data) == a)
  }
}
