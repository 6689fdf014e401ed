import StateStore
import Testing

// A refresh of an element scope reads as little of its store as it can: the one selection
// group and the one subscriber are kept beside the lists (`Store._soleSelection`,
// `_SelectionGroup._soleEntry`), the captured slice and the element groups are read only when
// flags say so (`_holdsCapturedSlice`, `_hasElementGroups`), and the scope's own cancellation
// log only when its group's is set. These tests move each of them through every state while
// the application's code (a view model's `deinit`, a subscriber's callback) subscribes and
// cancels.

/// Counts `PlanTaskModel` evaluations, by task id.
@MainActor private var taskEvaluations: [Int: Int] = [:]

/// Runs when a `PlanTaskModel`'s marker is released.
@MainActor private var taskModelRelease: (@MainActor () -> Void)?

private struct PlanStep: State, Identifiable, Equatable {
  var id = 0
  var count = 0
}

private struct PlanTask: State, Identifiable, Equatable {
  var id = 0
  var done = false
  var steps = TrackedArray<PlanStep>()
}

private struct Plan: State, Equatable {
  var tasks = TrackedArray<PlanTask>()

  init() {}

  init(taskCount: Int) {
    tasks = TrackedArray(
      (0..<taskCount).map { PlanTask(id: $0, steps: TrackedArray([PlanStep(id: 0)])) })
  }
}

/// Released with the view model that holds it; runs `taskModelRelease`.
private final class PlanModelMarker: Sendable {
  deinit {
    MainActor.assumeIsolated { taskModelRelease?() }
  }
}

private struct PlanTaskModel: ViewModelWithState {
  let id: Int
  let done: Bool
  let marker = PlanModelMarker()

  init?(state: PlanTask) {
    MainActor.assumeIsolated { taskEvaluations[state.id, default: 0] += 1 }
    id = state.id
    done = state.done
  }

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id && lhs.done == rhs.done }
}

private struct TogglePlanTask: StateUpdater {
  func updateState(_ state: inout PlanTask) { state.done.toggle() }
}

private struct BumpPlanStep: StateUpdater {
  func updateState(_ state: inout PlanTask) { state.steps[id: 0]?.count += 1 }
}

@MainActor
private final class PlanHeard {
  var lines: [String] = []
  var tokens: [Subscription] = []
}

@MainActor
@Suite("Element scopes' refresh: one group, one subscriber, flags", .serialized)
struct ElementScopeRefreshTests {
  init() {
    taskEvaluations = [:]
    taskModelRelease = nil
  }

  @Test("one selection group, then two, then one again: every group of the scope is told")
  func groupsComeAndGo() {
    let app = Store<Plan, Void>(initialState: Plan(taskCount: 10))
    let row = app.scope(state: \.tasks, id: 3)
    let heard = PlanHeard()
    let model = row.subscribe(PlanTaskModel.self) {
      heard.lines.append("model \($0?.done ?? false)")
    }
    row.dispatch(TogglePlanTask())
    let done = row.subscribe(to: \.done) { heard.lines.append("done \($0)") }
    row.dispatch(TogglePlanTask())
    model.cancel()
    row.dispatch(TogglePlanTask())
    done.cancel()
    row.dispatch(TogglePlanTask())
    let again = row.subscribe(PlanTaskModel.self) {
      heard.lines.append("again \($0?.done ?? false)")
    }
    row.dispatch(TogglePlanTask())
    #expect(
      heard.lines == [
        "model false", "model true", "done true", "model false", "done false", "done true",
        "again false", "again true",
      ])
    _ = again
  }

  @Test(
    "a view model whose release subscribes to the scope, released by the sweep that drops its group: the new group is told"
  )
  func releaseSubscribesWhileSwept() {
    let app = Store<Plan, Void>(initialState: Plan(taskCount: 10))
    let row = app.scope(state: \.tasks, id: 4)
    let heard = PlanHeard()
    var token: Subscription? = row.subscribe(PlanTaskModel.self) { _ in }
    taskModelRelease = {
      taskModelRelease = nil
      heard.tokens.append(row.subscribe(to: \.done) { heard.lines.append("late \($0)") })
    }
    token?.cancel()
    token = nil
    // The sweep at this dispatch drops the group, whose cached model's release subscribes.
    row.dispatch(TogglePlanTask())
    row.dispatch(TogglePlanTask())
    #expect(heard.lines == ["late true", "late false"])
    #expect(heard.tokens.count == 1)
  }

  @Test(
    "two subscribers of one view model, then one: the one left is told; one made in a callback too")
  func subscribersComeAndGo() {
    let app = Store<Plan, Void>(initialState: Plan(taskCount: 10))
    let row = app.scope(state: \.tasks, id: 5)
    let heard = PlanHeard()
    let first = row.subscribe(PlanTaskModel.self) {
      heard.lines.append("first \($0?.done ?? false)")
    }
    var second: Subscription? = row.subscribe(PlanTaskModel.self) { model in
      heard.lines.append("second \(model?.done ?? false)")
      // From the callback: the list changes while the group delivers.
      if model?.done == true, heard.tokens.isEmpty {
        heard.tokens.append(
          row.subscribe(PlanTaskModel.self) { heard.lines.append("third \($0?.done ?? false)") })
      }
    }
    row.dispatch(TogglePlanTask())
    second?.cancel()
    second = nil
    row.dispatch(TogglePlanTask())
    heard.tokens.removeAll()
    row.dispatch(TogglePlanTask())
    #expect(
      heard.lines == [
        "first false", "second false", "first true", "second true", "third true", "first false",
        "third false", "first true",
      ])
    _ = first
  }

  @Test("a listener of an element scope hears (old, new) of each change, also after it is replaced")
  func listenerOldAndNew() {
    let app = Store<Plan, Void>(initialState: Plan(taskCount: 10))
    let row = app.scope(state: \.tasks, id: 6)
    let heard = PlanHeard()
    var listener: Subscription? = row.addListener { old, new in
      heard.lines.append("\(old.done) > \(new.done)")
    }
    row.dispatch(TogglePlanTask())
    listener?.cancel()
    listener = nil
    row.dispatch(TogglePlanTask())
    let model = row.subscribe(PlanTaskModel.self) {
      heard.lines.append("model \($0?.done ?? false)")
    }
    row.dispatch(TogglePlanTask())
    let again = row.addListener { old, new in heard.lines.append("again \(old.done) > \(new.done)")
    }
    row.dispatch(TogglePlanTask())
    #expect(
      heard.lines == [
        "false > true", "model false", "model true", "again true > false", "model false",
      ])
    _ = (model, again)
  }

  @Test(
    "row subscriptions on an element scope's own array are told, stop when cancelled, and start again"
  )
  func elementGroupsOfAScope() {
    let app = Store<Plan, Void>(initialState: Plan(taskCount: 10))
    let row = app.scope(state: \.tasks, id: 7)
    let heard = PlanHeard()
    var step: Subscription? = row.subscribe(to: \.steps, id: 0) {
      heard.lines.append("step \($0?.count ?? -1)")
    }
    row.dispatch(BumpPlanStep())
    step?.cancel()
    step = nil
    row.dispatch(BumpPlanStep())
    let again = row.subscribe(to: \.steps, id: 0) { heard.lines.append("again \($0?.count ?? -1)") }
    row.dispatch(BumpPlanStep())
    #expect(heard.lines == ["step 0", "step 1", "again 2", "again 3"])
    _ = again
  }

  @Test(
    "a subscriber that cancels another scope of its element from its callback: the cancelled one is neither told nor evaluated again"
  )
  func cancelledInTheRound() {
    let app = Store<Plan, Void>(initialState: Plan(taskCount: 10))
    let row = app.scope(state: \.tasks, id: 8)
    let other = app.scope(state: \.tasks, id: 8, name: "other")
    let heard = PlanHeard()
    var otherToken: Subscription?
    let first = row.subscribe(to: \.done) { done in
      heard.lines.append("row \(done)")
      if done { otherToken?.cancel() }
    }
    otherToken = other.subscribe(PlanTaskModel.self) {
      heard.lines.append("other \($0?.done ?? false)")
    }
    taskEvaluations = [:]
    row.dispatch(TogglePlanTask())
    #expect(taskEvaluations == [:])
    row.dispatch(TogglePlanTask())
    other.dispatch(TogglePlanTask())
    #expect(taskEvaluations == [:])
    #expect(heard.lines == ["row false", "other false", "row true", "row false", "row true"])
    _ = first
  }
}
