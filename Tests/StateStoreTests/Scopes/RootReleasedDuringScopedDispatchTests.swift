import StateStore
import Synchronization
import Testing

/// A scope's dispatch to a root that nothing observes is applied without a reference to the
/// root (`RootHandle.applyUnobserved`): these are the application's ways to release the root in
/// the middle of it, and what must hold then (the engine outlives the store until the dispatch
/// returns; the state's values are destroyed after it, never inside its access).
@MainActor
@Suite("Scoped stores: the root released during an in-place scoped dispatch")
struct RootReleasedDuringScopedDispatchTests {
  @Test(
    "an updater that releases the root's last reference: the change finishes, the root's state goes after it, the next dispatch is dropped"
  )
  func updaterReleasesTheRoot() throws {
    let log = EventLog()
    let box = RootBox.holdingRoot(loggingTo: log)
    weak let weakRoot = box.root
    let feature = try #require(box.root?.scope(state: \.feature))
    var errors: [String] = []
    feature.onUnhandledError = { error, _ in errors.append("\(error)") }
    feature.dispatch(
      ReleasingRename(name: "last", box: box, log: log))
    #expect(weakRoot == nil)
    #expect(
      log.events == [
        "updater began", "updater ended with the name set", "the root's state destroyed",
      ])
    #expect(feature.stateIfAvailable == nil)
    feature.dispatch(RenameFeature(name: "after"))
    #expect(errors.count == 1)
    #expect(errors.first?.contains("root store has been released") == true)
  }

  @Test(
    "a replaced value whose deinit releases the root: it runs inside the change, the rest of the root's state goes after it"
  )
  func replacedValueReleasesTheRoot() throws {
    let log = EventLog()
    let box = RootBox.holdingRoot(loggingTo: log)
    box.root?.scope(state: \.feature).dispatch(
      ReplaceFeatureCanary(
        canary: Canary {
          log.append("replaced value destroyed")
          MainActor.assumeIsolated { box.root = nil }
        }))
    let feature = try #require(box.root?.scope(state: \.feature))
    feature.dispatch(ReplaceFeatureCanary(canary: nil))
    #expect(box.root == nil)
    #expect(log.events == ["replaced value destroyed", "the root's state destroyed"])
    #expect(feature.stateIfAvailable == nil)
  }

  @Test(
    "an updater that queues a dispatch and then releases the root: the queued dispatch never runs, and is released with the root"
  )
  func queuedDispatchDiesWithTheRoot() throws {
    let log = EventLog()
    let box = RootBox.holdingRoot(loggingTo: log)
    let feature = try #require(box.root?.scope(state: \.feature))
    var errors: [String] = []
    feature.onUnhandledError = { error, _ in errors.append("\(error)") }
    feature.dispatch(
      QueueingThenReleasing(
        queued: TaggedRename(
          name: "queued", tag: Canary { log.append("queued dispatch destroyed") },
          log: log),
        feature: feature, box: box))
    #expect(box.root == nil)
    #expect(!log.events.contains("queued dispatch applied"))
    #expect(log.events.contains("queued dispatch destroyed"))
    #expect(log.events.contains("the root's state destroyed"))
    #expect(errors.isEmpty)
  }

  @Test(
    "a dispatch queued by an in-place updater releases the root as it runs after it: the root's state goes after the whole dispatch"
  )
  func drainedDispatchReleasesTheRoot() throws {
    let log = EventLog()
    let box = RootBox.holdingRoot(loggingTo: log)
    let feature = try #require(box.root?.scope(state: \.feature))
    feature.dispatch(
      QueueingReleasing(
        queued: ReleasingRename(name: "queued", box: box, log: log), feature: feature, log: log))
    #expect(box.root == nil)
    #expect(
      log.events == [
        "outer updater ended", "updater began", "updater ended with the name set",
        "the root's state destroyed",
      ])
    #expect(feature.stateIfAvailable == nil)
  }

  @Test(
    "a dispatch an unobserved in-place updater makes through its scope runs right after it, in order"
  )
  func queuedDispatchRunsAfter() {
    let log = EventLog()
    let app = Store<KeeperShell, Void>()
    let feature = app.scope(state: \.feature)
    feature.dispatch(
      QueueingThenReleasing(
        queued: TaggedRename(name: "queued", tag: Canary {}, log: log), feature: feature,
        box: RootBox()))
    #expect(log.events == ["queued dispatch applied"])
    #expect(app.state.feature.name == "queued")
    // And a second one, with the flag of the queue cleared by the first round.
    feature.dispatch(RenameFeature(name: "direct"))
    #expect(app.state.feature.name == "direct")
  }

  @Test(
    "reading the state from inside a scope's unobserved in-place updater stops the process with the rule named"
  )
  func readingInsideTheInPlaceUpdaterIsStopped() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        let app = Store<KeeperShell, Void>()
        let feature = app.scope(state: \.feature)
        feature.dispatch(PeekingRename(feature: feature))
      }
    }.map { result in
      let message = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(message.contains("read store.state while an updater"))
    }
  }

  @Test("an update's sequence counts the in-place scoped dispatches applied before it")
  func sequenceCountsInPlaceDispatches() {
    let app = Store<KeeperShell, Void>()
    let feature = app.scope(state: \.feature)
    feature.dispatch(RenameFeature(name: "one"))
    feature.dispatch(RenameFeature(name: "two"))
    feature.dispatch(RenameFeature(name: "three"))
    var sequences: [UInt64] = []
    let token = app.observeUpdates { sequences.append($0.sequence) }
    feature.dispatch(RenameFeature(name: "four"))
    #expect(sequences == [4])
    withExtendedLifetime(token) {}
  }
}

/// The events of a test, in order; appended to from deinitializers on any thread.
final class EventLog: Sendable {
  private let list = Mutex<[String]>([])
  var events: [String] { list.withLock { $0 } }
  func append(_ event: String) { list.withLock { $0.append(event) } }
}

/// Holds the only reference to a root, so that the application's code can drop it.
@MainActor
final class RootBox: Sendable {
  var root: Store<KeeperShell, Void>?

  /// A box holding the only reference to a new root, whose state's `keeper` notes in `log`
  /// when the state is destroyed.
  static func holdingRoot(loggingTo log: EventLog) -> RootBox {
    let box = RootBox()
    let root = Store<KeeperShell, Void>()
    root.dispatch(SetKeeper(keeper: Canary { log.append("the root's state destroyed") }))
    box.root = root
    return box
  }
}

/// A root with a scoped feature and a value of its own whose deinit says when it goes.
struct KeeperShell: State {
  var feature = CanaryFeature()
  var keeper: Canary?
}

struct SetKeeper: StateUpdater {
  let keeper: Canary
  func updateState(_ state: inout KeeperShell) { state.keeper = keeper }
}

/// Renames the feature, releasing the root's last reference in the middle.
struct ReleasingRename: StateUpdater {
  let name: String
  let box: RootBox
  let log: EventLog
  func updateState(_ state: inout CanaryFeature) {
    log.append("updater began")
    MainActor.assumeIsolated { box.root = nil }
    state.name = name
    log.append(state.name == name ? "updater ended with the name set" : "updater ended")
  }
}

/// Renames the feature and says so; carries a canary that says when the updater goes.
struct TaggedRename: StateUpdater {
  let name: String
  let tag: Canary
  let log: EventLog
  func updateState(_ state: inout CanaryFeature) {
    state.name = name
    log.append("queued dispatch applied")
  }
}

/// Dispatches `queued` through the feature's scope, then drops the root's last reference.
struct QueueingThenReleasing: StateUpdater {
  let queued: TaggedRename
  let feature: Store<CanaryFeature, Void>
  let box: RootBox
  func updateState(_ state: inout CanaryFeature) {
    MainActor.assumeIsolated {
      feature.dispatch(queued)
      box.root = nil
    }
  }
}

/// Dispatches `queued` through the feature's scope, to run after this updater.
struct QueueingReleasing: StateUpdater {
  let queued: ReleasingRename
  let feature: Store<CanaryFeature, Void>
  let log: EventLog
  func updateState(_ state: inout CanaryFeature) {
    MainActor.assumeIsolated { feature.dispatch(queued) }
    log.append("outer updater ended")
  }
}

/// Reads its own scope's state from inside its `inout` access: forbidden.
struct PeekingRename: StateUpdater {
  let feature: Store<CanaryFeature, Void>
  func updateState(_ state: inout CanaryFeature) {
    state.name = MainActor.assumeIsolated { feature.state.name } + "!"
  }
}
