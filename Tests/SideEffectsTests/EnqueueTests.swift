import Foundation
import SideEffects
import StateStoreTesting
import Testing

/// Saves whether `repository` is a favourite to a file, after a delay on the injected clock that
/// stands for a slow disk; `ordered` queues saves of the same file behind each other.
struct SaveFavourite: SideEffect {
  let file: URL
  let repository: String
  let isFavourite: Bool
  let diskDelay: Duration
  let ordered: Bool

  var cancellationID: (any Hashable & Sendable)? { ordered ? file : nil }
  var cancellationPolicy: CancellationPolicy { .enqueue }

  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    try await context.dependencies.clock.sleep(for: diskDelay)
    let content = "\(repository): \(isFavourite ? "favourite" : "not favourite")"
    try Data(content.utf8).write(to: file, options: .atomic)
    await context.dispatch(Append(entry: content))
  }
}

/// Logs its start and end around a wait at the store's gate, in an `.enqueue` queue.
struct QueuedStep: SideEffect {
  let name: String
  var cancellationID: (any Hashable & Sendable)? { "queue" }
  var cancellationPolicy: CancellationPolicy { .enqueue }

  func sideEffect(_ context: SideEffectContext<Counter, Dependencies>) async throws {
    context.dependencies.service.record("\(name) start")
    try await context.dependencies.gate.wait()
    context.dependencies.service.record("\(name) end")
  }
}

@MainActor
@Suite("Ordered effects: the .enqueue policy", .timeLimit(.minutes(5)))
struct EnqueueTests {
  func temporaryFile() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("EnqueueTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("favourites.txt")
  }

  func toggleTwice(ordered: Bool, file: URL) async -> TestStore<Counter, Dependencies> {
    let clock = TestClock()
    let store = makeTestStore(clock: clock)
    // Two quick taps: the first save hits a slow disk, the second a fast one.
    await store.send(
      SaveFavourite(
        file: file, repository: "swift", isFavourite: true, diskDelay: .milliseconds(100),
        ordered: ordered))
    await store.send(
      SaveFavourite(
        file: file, repository: "swift", isFavourite: false, diskDelay: .milliseconds(10),
        ordered: ordered))
    await clock.advance(by: .milliseconds(200))
    return store
  }

  @Test("without an identifier two quick saves run at once and the file ends with the first")
  func unorderedSavesLandOutOfOrder() async throws {
    let file = try temporaryFile()
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let store = await toggleTwice(ordered: false, file: file)
    await store.receive(Append(entry: "swift: not favourite")) {
      $0.log = ["swift: not favourite"]
    }
    await store.receive(Append(entry: "swift: favourite")) {
      $0.log = ["swift: not favourite", "swift: favourite"]
    }
    await store.finish()
    #expect(try String(contentsOf: file, encoding: .utf8) == "swift: favourite")
  }

  @Test("with .enqueue the saves run one after another and the file ends with the last")
  func enqueuedSavesLandInOrder() async throws {
    let file = try temporaryFile()
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let store = await toggleTwice(ordered: true, file: file)
    await store.receive(Append(entry: "swift: favourite")) { $0.log = ["swift: favourite"] }
    await store.receive(Append(entry: "swift: not favourite")) {
      $0.log = ["swift: favourite", "swift: not favourite"]
    }
    await store.finish()
    #expect(try String(contentsOf: file, encoding: .utf8) == "swift: not favourite")
  }

  @Test("queued effects start only when the one before has ended, in dispatch order")
  func oneAfterAnother() async throws {
    let store = makeStore()
    let service = store.dependencies.service
    let handles = ["a", "b", "c", "d"].map { store.launch(QueuedStep(name: $0)) }
    #expect(store.runningEffectCount == 4)
    await store.dependencies.gate.arrivals(1)
    #expect(service.recorded == ["a start"])
    store.dependencies.gate.open()
    for handle in handles { try await handle.value }
    #expect(
      service.recorded == [
        "a start", "a end", "b start", "b end", "c start", "c end", "d start", "d end",
      ])
  }

  @Test("cancelling a queued effect before its turn resolves its awaiters at once")
  func cancelBeforeTurn() async throws {
    let store = makeStore()
    let first = store.launch(QueuedStep(name: "a"))
    let queued = store.launch(QueuedStep(name: "b"))
    let awaited = Task { try await store.dispatch(QueuedStep(name: "c")) }
    let last = store.launch(QueuedStep(name: "d"))
    await store.dependencies.gate.arrivals(1)
    queued.cancel()
    awaited.cancel()
    // The first still waits at the closed gate: the cancelled ones end without waiting for it.
    #expect(await queued.result.isCancellation)
    #expect(await awaited.result.isCancellation)
    store.dependencies.gate.open()
    try await first.value
    try await last.value
    #expect(store.dependencies.service.recorded == ["a start", "a end", "d start", "d end"])
  }

  @Test("cancelEffects(identifiedBy:) cancels the running effect and every queued one")
  func cancelByIdentifier() async {
    let store = makeStore()
    let handles = ["a", "b", "c"].map { store.launch(QueuedStep(name: $0)) }
    await store.dependencies.gate.arrivals(1)
    store.cancelEffects(identifiedBy: "queue")
    for handle in handles { #expect(await handle.result.isCancellation) }
    #expect(store.runningEffectCount == 0)
    #expect(store.dependencies.service.recorded == ["a start"])
  }

  @Test("a TestStore explains a queued effect behind one asleep on the clock")
  func queuedBehindASleeper() async throws {
    let file = try temporaryFile()
    defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
    let store = makeTestStore(clock: TestClock())
    for isFavourite in [true, false] {
      await store.send(
        SaveFavourite(
          file: file, repository: "swift", isFavourite: isFavourite, diskDelay: .seconds(1),
          ordered: true))
    }
    let messages = await recordedIssues { await store.finish() }
    #expect(messages.first?.contains("is asleep on the TestClock until +1 s") == true)
    #expect(
      messages.first?.contains(
        "waits for its turn behind SaveFavourite (cancellation policy .enqueue)") == true)
  }
}

extension Result {
  /// Whether this is a failure with `CancellationError`.
  var isCancellation: Bool {
    if case .failure(let error) = self { error is CancellationError } else { false }
  }
}
