import ActionLog
import Foundation
import StateStore
import Synchronization
import Testing

/// Counts how often it is applied, to prove the timeline's cost bound.
struct CountedAdd: StateUpdater, Codable {
  static let applications = Mutex(0)
  var title: String
  func updateState(_ state: inout TodoState) {
    Self.applications.withLock { $0 += 1 }
    AddTodo(title: title).updateState(&state)
  }
}

@Suite("Time travel")
struct TimelineTests {
  private func session(count: Int) -> [any StateUpdater<TodoState>] {
    (0..<count).map { index -> any StateUpdater<TodoState> in
      switch index % 5 {
      case 0, 1: AddTodo(title: "t\(index)")
      case 2: ToggleTodo(id: index / 2)
      case 3: AddLabel(label: "l\(index % 7)")
      default: RemoveTodo(id: index / 3)
      }
    }
  }

  private func log(_ updaters: [any StateUpdater<TodoState>]) throws -> Data {
    var writer = ActionLogWriter(registry: .todos())
    for updater in updaters { try writer.append(updater) }
    return writer.data
  }

  @Test("The state after any entry equals a full replay of the entries up to it")
  func matchesFullReplay() throws {
    let updaters = session(count: 300)
    let timeline = try ActionReplayer(registry: .todos())
      .timeline(try log(updaters), initialState: TodoState(), snapshotInterval: 16)
    #expect(timeline.entries.count == 300)
    #expect(timeline.finalState == applied(updaters))
    for sequence in [0, 1, 2, 15, 16, 17, 31, 32, 33, 100, 157, 255, 256, 299, 300] {
      #expect(
        timeline.state(afterEntry: sequence) == applied(Array(updaters.prefix(sequence))),
        "after entry \(sequence)")
    }
    for sequence in stride(from: 3, through: 300, by: 13) {
      #expect(timeline.state(afterEntry: sequence) == applied(Array(updaters.prefix(sequence))))
    }
    #expect(timeline.state(afterEntry: -1) == nil)
    #expect(timeline.state(afterEntry: 301) == nil)
  }

  @Test("Seeking applies fewer updaters than the snapshot interval")
  func seekCostIsBounded() throws {
    let registry = ActionLogRegistry<TodoState>().register(CountedAdd.self)
    var writer = ActionLogWriter(registry: registry)
    for index in 0..<200 { try writer.append(CountedAdd(title: "t\(index)")) }
    let timeline = try ActionReplayer(registry: registry)
      .timeline(writer.data, initialState: TodoState(), snapshotInterval: 10)
    for sequence in [0, 9, 10, 11, 99, 155, 199, 200] {
      CountedAdd.applications.withLock { $0 = 0 }
      let state = try #require(timeline.state(afterEntry: sequence))
      #expect(state.todos.count == sequence)
      #expect(CountedAdd.applications.withLock { $0 } < 10, "after entry \(sequence)")
    }
  }

  @Test("Sequence numbers with gaps seek to the last entry at or before the number")
  func gapsInSequence() throws {
    let text = [
      #"{"format":"statestore-action-log","version":1}"#,
      #"{"seq":10,"type":"AddTodo","payload":{"title":"a"}}"#,
      #"{"seq":20,"type":"AddTodo","payload":{"title":"b"}}"#,
    ].joined(separator: "\n")
    let timeline = try ActionReplayer(registry: .todos())
      .timeline(Data(text.utf8), initialState: TodoState(), snapshotInterval: 1)
    #expect(timeline.state(afterEntry: 9)?.todos.count == 0)
    #expect(timeline.state(afterEntry: 15)?.todos.count == 1)
    #expect(timeline.state(afterEntry: 20)?.todos.count == 2)
    #expect(timeline.state(afterEntries: 1)?.todos.count == 1)
    #expect(timeline.state(afterEntries: 3) == nil)
  }
}
