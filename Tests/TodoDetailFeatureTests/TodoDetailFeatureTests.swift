import ActionLog
import StateStore
import StateStoreTesting
import Testing

@testable import TodoDetailFeature

@MainActor
@Suite("The detail feature, alone")
struct TodoDetailFeatureTests {
  static let dependencies = TodoDetailDependencies { text in
    text == "soon" ? .date("2026-03-13") : .refused("'\(text)' is not a date")
  }

  @Test("p moves through none, high, medium, low and back to none")
  func priorityCycle() {
    var priority: DetailPriority? = nil
    var seen: [DetailPriority?] = []
    for _ in 0..<4 {
      priority = DetailPriority.after(priority)
      seen.append(priority)
    }
    #expect(seen == [.high, .medium, .low, nil])
  }

  @Test("Opening and closing the detail sets the todo and forgets the last entry")
  func openClose() async {
    let store = TestStore(initialState: TodoDetailState(), dependencies: Self.dependencies)
    await store.send(OpenTodoDetail(id: 3)) { $0.todoID = 3 }
    await store.send(RefuseDate(reason: "no")) { $0.refusal = "no" }
    await store.send(OpenTodoDetail(id: 4)) {
      $0.todoID = 4
      $0.refusal = nil
    }
    await store.send(CloseTodoDetail()) { $0.todoID = nil }
  }

  @Test("SubmitDate resolves through the dependencies, and none or nothing is no date")
  func submitDate() async throws {
    let store = TestStore(
      initialState: TodoDetailState(todoID: 1), dependencies: Self.dependencies)
    await store.send(SubmitDate(" soon "))
    await store.receive(AcceptDate(date: "2026-03-13")) { $0.acceptedDate = "2026-03-13" }
    await store.send(SubmitDate("later"))
    await store.receive(RefuseDate(reason: "'later' is not a date")) {
      $0.refusal = "'later' is not a date"
    }
    await store.send(SubmitDate("none"))
    await store.receive(AcceptDate(date: nil)) {
      $0.acceptedDate = nil
      $0.refusal = nil
    }
    await store.finish()
  }

  @Test("The updaters are registered under stable names")
  func registry() {
    let registry = ActionLogRegistry<TodoDetailState>()
    TodoDetailState.registerUpdaters(in: registry)
    for name in ["OpenTodoDetail", "CloseTodoDetail", "AcceptDate", "RefuseDate"] {
      #expect(registry.names.contains(name), "\(name)")
    }
  }
}
