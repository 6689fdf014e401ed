import Observation
import StateStoreUI
import Synchronization
import Testing

/// Counts how often Observation reported a change; shared with `onChange`, which is `@Sendable`.
final class ChangeCount: Sendable {
  private let count = Mutex(0)
  var value: Int { count.withLock { $0 } }
  func increment() { count.withLock { $0 += 1 } }
}

@Suite("observe: an @Observable view model for SwiftUI")
@MainActor
struct ObserveTests {
  /// Tracks `observed.model` once, as a SwiftUI body does: `changes` counts the one report.
  private func track(_ observed: ObservedModel<TitleViewModel>, _ changes: ChangeCount) {
    withObservationTracking {
      _ = observed.model
    } onChange: {
      changes.increment()
    }
  }

  @Test("the model is the current view model at once")
  func initialModel() {
    let store = makeStore()
    let observed = store.observe(TitleViewModel.self)
    #expect(observed.model == TitleViewModel(text: "Inbox"))
  }

  @Test("tracking fires exactly once per model change, and never for an equal model")
  func trackingFiresOncePerChange() {
    let store = makeStore()
    let observed = store.observe(TitleViewModel.self)
    var seen: [String?] = [observed.model?.text]
    var fired: [Int] = []
    for updater in [
      SetTitle(title: "Work"), SetTitle(title: "Work"), SetTitle(title: "Home"),
      SetTitle(title: "Inbox"),
    ] as [any StateUpdater<AppState>] {
      let changes = ChangeCount()
      track(observed, changes)
      store.dispatch(any: updater)
      fired.append(changes.value)
      if changes.value > 0 { seen.append(observed.model?.text) }
    }
    let changes = ChangeCount()
    track(observed, changes)
    store.dispatch(Bump())
    fired.append(changes.value)
    #expect(fired == [1, 0, 1, 1, 0])
    #expect(seen == ["Inbox", "Work", "Home", "Inbox"])
  }

  @Test("a change of one observed model does not fire tracking of another")
  func trackingIsPerObject() {
    let store = makeStore()
    let title = store.observe(TitleViewModel.self)
    let other = makeStore().observe(TitleViewModel.self)
    let changes = ChangeCount()
    withObservationTracking {
      _ = other.model
    } onChange: {
      changes.increment()
    }
    store.dispatch(SetTitle(title: "Work"))
    #expect(title.model?.text == "Work")
    #expect(changes.value == 0)
  }

  @Test("two changes seen by one tracking report once, and the model is the last")
  func oneReportPerTracking() {
    let store = makeStore()
    let observed = store.observe(TitleViewModel.self)
    let changes = ChangeCount()
    track(observed, changes)
    store.dispatch(SetTitle(title: "Work"))
    store.dispatch(SetTitle(title: "Home"))
    #expect(changes.value == 1)
    #expect(observed.model?.text == "Home")
  }

  @Test("observed models and subscribers of one view-model type share one evaluation per change")
  func evaluationsAreShared() {
    let store = makeStore()
    let observed = (0..<3).map { _ in store.observe(ObservedSharedViewModel.self) }
    let token = store.subscribe(ObservedSharedViewModel.self) { _ in }
    let before = ObservedSharedViewModel.evaluations.withLock { $0 }
    store.dispatch(SetTitle(title: "Work"))
    store.dispatch(Bump())
    #expect(ObservedSharedViewModel.evaluations.withLock { $0 } - before == 2)
    #expect(observed.map { $0.model?.text } == ["Work", "Work", "Work"])
    _ = token
  }

  @Test("releasing the object ends its subscription")
  func releaseEndsSubscription() {
    let store = makeStore()
    var observed: ObservedModel<ReleasedTitleViewModel>? = store.observe(
      ReleasedTitleViewModel.self)
    weak let weakObserved = observed
    store.dispatch(SetTitle(title: "Work"))
    #expect(observed?.model?.text == "Work")
    observed = nil
    #expect(weakObserved == nil)
    let before = ReleasedTitleViewModel.evaluations.withLock { $0 }
    store.dispatch(SetTitle(title: "Home"))
    store.dispatch(SetTitle(title: "Away"))
    #expect(ReleasedTitleViewModel.evaluations.withLock { $0 } == before)
  }
}
