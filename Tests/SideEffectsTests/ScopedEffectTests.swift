// What these tests catch (changes to the library that must turn them red):
// - A second, spurious issue from a test store over a scope, after a wrong expectation or at
//   its end → `exhaustiveInsideTheApp` (it compares the complete list of recorded issues).

import Foundation
import SideEffects
import StateStoreTesting
import Synchronization
import Testing

/// A feature with its own state and dependencies, knowing nothing of the app.
struct NoteState: State, Equatable {
  var text = ""
  var saved: [String] = []
}

struct NoteDependencies: Sendable {
  var save: @Sendable (String) async throws -> Void
}

struct SetNote: StateUpdater, Equatable {
  let text: String
  func updateState(_ state: inout NoteState) { state.text = text }
}

struct MarkSaved: StateUpdater, Equatable {
  let text: String
  func updateState(_ state: inout NoteState) { state.saved.append(text) }
}

struct SaveNote: SideEffect {
  var cancellationID: (any Hashable & Sendable)? { "save" }
  func sideEffect(_ context: SideEffectContext<NoteState, NoteDependencies>) async throws {
    let text = await context.state.text
    try await context.dependencies.save(text)
    await context.dispatch(MarkSaved(text: text))
  }
}

struct NoteLength: ReturningSideEffect {
  func sideEffect(_ context: SideEffectContext<NoteState, NoteDependencies>) async throws -> Int {
    await context.state.text.count
  }
}

struct FailingSave: SideEffect {
  struct Failure: Error {}
  func sideEffect(_ context: SideEffectContext<NoteState, NoteDependencies>) async throws {
    throw Failure()
  }
}

struct WaitForever: SideEffect {
  var cancellationID: (any Hashable & Sendable)? { "save" }
  func sideEffect(_ context: SideEffectContext<NoteState, NoteDependencies>) async throws {
    try await Task.sleep(for: .seconds(3600))
  }
}

struct NotesApp: State, Equatable {
  var left = NoteState()
  var right = NoteState()
}

struct NotesDependencies: Sendable {
  var left: NoteDependencies
  var right: NoteDependencies
}

@MainActor
@Suite("Side effects through scopes")
struct ScopedEffectTests {
  static func app(saved: SavedTexts = SavedTexts()) -> Store<NotesApp, NotesDependencies> {
    let left = NoteDependencies { saved.append("left: \($0)") }
    let right = NoteDependencies { saved.append("right: \($0)") }
    return Store(dependencies: NotesDependencies(left: left, right: right))
  }

  @Test("a feature's effect gets the feature's dependencies and reads and writes its slice")
  func effectUsesFeatureDependencies() async throws {
    let saved = SavedTexts()
    let app = Self.app(saved: saved)
    let left = app.scope(state: \.left, dependencies: \.left)
    left.dispatch(SetNote(text: "milk"))
    try await left.dispatch(SaveNote())
    #expect(saved.items == ["left: milk"])
    #expect(app.state.left.saved == ["milk"])
    #expect(app.state.right == NoteState())
    #expect(try await left.dispatch(NoteLength()) == 4)
    let task = left.launch(NoteLength())
    #expect(try await task.value == 4)
  }

  @Test("root interceptors see effects dispatched through a scope")
  func interceptorsSeeScopedEffects() async throws {
    let seen = Seen()
    let interceptor = StoreInterceptor<NotesApp> { dispatchable, _, next in
      seen.append(String(describing: type(of: dispatchable)))
      next(dispatchable)
    }
    let app = Store<NotesApp, NotesDependencies>(
      dependencies: NotesDependencies(
        left: NoteDependencies { _ in }, right: NoteDependencies { _ in }),
      interceptors: [interceptor])
    try await app.scope(state: \.left, dependencies: \.left).dispatch(SaveNote())
    #expect(seen.items == ["SaveNote", "ScopedUpdater<NotesApp, NoteState>"])
  }

  @Test("cancellation identifiers of different scopes never collide")
  func cancellationNamespaced() async throws {
    let app = Self.app()
    let left = app.scope(state: \.left, dependencies: \.left)
    let right = app.scope(state: \.right, dependencies: \.right)
    let waiting = left.launch(WaitForever())
    right.dispatch(SetNote(text: "x"))
    try await right.dispatch(SaveNote())
    #expect(!waiting.isCancelled)
    #expect(left.runningEffectCount == 1)
    left.cancelEffects(identifiedBy: "save")
    await waiting.finish()
    #expect(left.runningEffectCount == 0)
  }

  @Test("errors reach whoever awaited, and onUnhandledError of the root when launched")
  func errorsAsAtTheRoot() async throws {
    let app = Self.app()
    var reported: [String] = []
    app.onUnhandledError = { error, dispatchable in reported.append("\(type(of: dispatchable))") }
    let left = app.scope(state: \.left, dependencies: \.left)
    await #expect(throws: FailingSave.Failure.self) { try await left.dispatch(FailingSave()) }
    await left.launch(FailingSave()).finish()
    #expect(reported == ["FailingSave"])
  }

  @Test("an effect dispatched through a scope whose root is gone is reported as dropped")
  func rootGone() async throws {
    let left: Store<NoteState, NoteDependencies>
    do { left = Self.app().scope(state: \.left, dependencies: \.left) }
    var reported: [String] = []
    left.onUnhandledError = { error, _ in reported.append("\(error)") }
    try await left.dispatch(SaveNote())
    #expect(reported.count == 1)
    #expect(reported.first?.contains("root store has been released") == true)
    // Worded as what it is at the end of a test: expected, and nothing but this dispatch lost.
    #expect(
      reported.first?.contains("expected when an effect or a screen outlives its app") == true)
  }

  @Test("the same feature code runs on a feature store and on a scope of the app")
  func sameFeatureCodeBothWays() async throws {
    func exercise(_ store: Store<NoteState, NoteDependencies>) async throws -> NoteState {
      var texts: [String] = []
      let token = store.subscribe(to: \.text) { texts.append($0) }
      store.dispatch(SetNote(text: "eggs"))
      try await store.dispatch(SaveNote())
      token.cancel()
      #expect(texts == ["", "eggs"])
      return store.state
    }
    let alone = Store<NoteState, NoteDependencies>(dependencies: NoteDependencies { _ in })
    let app = Self.app()
    let scoped = app.scope(state: \.left, dependencies: \.left)
    #expect(try await exercise(alone) == exercise(scoped))
    #expect(app.state.left.saved == ["eggs"])
  }
}

/// Texts saved by the fake dependencies, from any thread.
final class SavedTexts: Sendable {
  private let storage = Mutex<[String]>([])
  var items: [String] { storage.withLock { $0 } }
  func append(_ text: String) { storage.withLock { $0.append(text) } }
}

/// What an interceptor saw, on the main actor.
@MainActor
final class Seen: Sendable {
  private(set) var items: [String] = []
  nonisolated init() {}
  func append(_ item: String) { items.append(item) }
}

/// The feature's own exhaustive test, written once against a test store of the feature.
@MainActor
func exerciseNoteFeature(_ store: TestStore<NoteState, NoteDependencies>) async {
  await store.send(SetNote(text: "milk")) { $0.text = "milk" }
  await store.send(SaveNote())
  await store.receive(MarkSaved(text: "milk")) { $0.saved = ["milk"] }
  await store.finish()
}

@MainActor
@Suite("A TestStore over a scope of the app", .timeLimit(.minutes(5)))
struct ScopedTestStoreTests {
  @Test("the same exhaustive feature test passes alone and over a scope of the app")
  func sameTestBothWays() async {
    let saved = SavedTexts()
    await exerciseNoteFeature(
      TestStore(
        initialState: NoteState(),
        dependencies: NoteDependencies { saved.append("alone: \($0)") }))
    let app = ScopedEffectTests.app(saved: saved)
    await exerciseNoteFeature(
      TestStore(wrapping: app.scope(state: \.left, dependencies: \.left)))
    #expect(saved.items == ["alone: milk", "left: milk"])
    #expect(app.state.left == NoteState(text: "milk", saved: ["milk"]))
    #expect(app.state.right == NoteState())
  }

  @Test("over a scope, a wrong expectation and an unreceived updater still fail")
  func exhaustiveInsideTheApp() async {
    let app = ScopedEffectTests.app()
    let messages = await recordedIssues {
      let store = TestStore(wrapping: app.scope(state: \.left, dependencies: \.left))
      await store.send(SetNote(text: "milk")) { $0.text = "bread" }
      await store.send(SaveNote())
      await store.finish()
    }
    #expect(
      messages == [
        """
        The state after send(SetNote) differs from the expected state (expected → actual):
          text: "bread" → "milk"
        """,
        """
        The test ended with 1 received updater(s) not asserted: MarkSaved. Assert each with \
        `await store.receive(...)`, or skip them with `store.skipReceivedUpdaters()`.
        """,
      ])
  }

  @Test("a test store over a scope keeps the app alive: the app may be a temporary")
  func keepsTheRootAlive() async {
    weak var released: Store<NotesApp, NotesDependencies>?
    let store: TestStore<NoteState, NoteDependencies>
    do {
      let app = ScopedEffectTests.app()
      released = app
      store = TestStore(wrapping: app.scope(state: \.left, dependencies: \.left))
    }
    #expect(released != nil)
    await exerciseNoteFeature(store)
  }
}

extension NoteState: StateWithDependencies {
  typealias Dependencies = NoteDependencies
}

extension NoteDependencies {
  /// Saves nothing.
  static var fake: Self { Self { _ in } }
}

@MainActor
@Suite("A TestStore infers its dependency type from the state")
struct InferredDependenciesTests {
  @Test("TestStore(initialState:dependencies: .fake) finds the static member through the state")
  func infersFromTheState() async {
    let store = TestStore(initialState: NoteState(), dependencies: .fake)
    await store.send(SetNote(text: "milk")) { $0.text = "milk" }
    await store.send(SaveNote())
    await store.receive(MarkSaved(text: "milk")) { $0.saved = ["milk"] }
    await store.finish()
  }
}
