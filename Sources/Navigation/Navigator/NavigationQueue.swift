/// Runs a navigator's requests one at a time, in the order they arrive.
///
/// A request that arrives while another runs waits behind it; one made from inside the running
/// request (a `.custom` instruction awaiting another request) runs at once, nested, since
/// waiting for the queue from inside its own running request would wait forever.
@MainActor
final class NavigationQueue {
  /// One unit of work: a request's resolution, or a step the navigator itself queues (hiding a
  /// cancelled sub-flow), so that it never interleaves with a request.
  typealias Work = @MainActor (Navigator) async throws -> Void

  /// A request waiting for its turn.
  private struct Job {
    let work: Work
    let completion: @MainActor (Result<Void, any Error>) -> Void
  }

  private var jobs: [Job] = []
  private var isRunning = false

  /// Runs `action` on `navigator` after every request that arrived before it.
  func perform(_ action: NavigationAction, on navigator: Navigator) async throws {
    if isInsideRequest(of: navigator) {
      try await RouteResolver(navigator: navigator).run(action)
      return
    }
    if !isRunning && jobs.isEmpty {
      if case .navigate(let target, _) = action, target == navigator.currentRoute { return }
      isRunning = true
      defer { finishRunning(on: navigator) }
      try await NavigationTaskLocals.$runningNavigator.withValue(ObjectIdentifier(navigator)) {
        try await RouteResolver(navigator: navigator).run(action)
      }
      return
    }
    try await withCheckedThrowingContinuation { continuation in
      jobs.append(
        Job(work: Self.work(for: action)) { continuation.resume(with: $0) })
    }
  }

  /// Queues `action` without awaiting it; `completion` gets its outcome.
  func submit(
    _ action: NavigationAction, on navigator: Navigator,
    completion: @escaping @MainActor (Result<Void, any Error>) -> Void
  ) {
    submit(Self.work(for: action), on: navigator, completion: completion)
  }

  /// Queues `work` without awaiting it; `completion` gets its outcome, synchronously after the
  /// work ends, before any other job starts.
  func submit(
    _ work: @escaping Work, on navigator: Navigator,
    completion: @escaping @MainActor (Result<Void, any Error>) -> Void
  ) {
    if isInsideRequest(of: navigator) {
      Task { completion(await Self.outcome(of: work, on: navigator)) }
    } else {
      jobs.append(Job(work: work, completion: completion))
      if !isRunning {
        isRunning = true
        Task { await self.drain(on: navigator) }
      }
    }
  }

  private static func work(for action: NavigationAction) -> Work {
    { navigator in try await RouteResolver(navigator: navigator).run(action) }
  }

  private func isInsideRequest(of navigator: Navigator) -> Bool {
    NavigationTaskLocals.runningNavigator == ObjectIdentifier(navigator)
  }

  private func finishRunning(on navigator: Navigator) {
    if jobs.isEmpty {
      isRunning = false
    } else {
      Task { await self.drain(on: navigator) }
    }
  }

  private func drain(on navigator: Navigator) async {
    while !jobs.isEmpty {
      let job = jobs.removeFirst()
      let result = await NavigationTaskLocals.$runningNavigator.withValue(
        ObjectIdentifier(navigator)
      ) {
        await Self.outcome(of: job.work, on: navigator)
      }
      job.completion(result)
    }
    isRunning = false
  }

  private static func outcome(of work: Work, on navigator: Navigator) async
    -> Result<Void, any Error>
  {
    do {
      try await work(navigator)
      return .success(())
    } catch {
      return .failure(error)
    }
  }
}

enum NavigationTaskLocals {
  /// The navigator whose request the current task is resolving, if any.
  @TaskLocal static var runningNavigator: ObjectIdentifier?
}
