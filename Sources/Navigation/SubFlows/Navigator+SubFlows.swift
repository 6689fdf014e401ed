import SideEffects

/// Sub-flows that return a result: showing one and awaiting it, finishing it, and resuming the
/// caller with `nil` when it leaves the route without a result.
extension Navigator {
  /// Shows `identifier` as a sub-flow and returns the result it finishes with, or `nil` when it
  /// leaves the route without one.
  ///
  /// See ``ShowForResult`` for every outcome; dispatching that request to the store is the
  /// usual way, so that interceptors see it.
  ///
  /// - Throws: ``NavigationError`` when the `Show` fails; `CancellationError` when the awaiting
  ///   task is cancelled, which hides the sub-flow.
  public func showForResult<Value: Sendable>(
    _ identifier: RouteElementIdentifier, of type: Value.Type, context: (any Sendable)? = nil
  ) async throws -> Value? {
    try await awaitSubFlow(identifier, of: type) { flow in
      self.start(flow, showing: identifier, context: context)
    }
  }

  /// Finishes the topmost sub-flow shown as `identifier` with `result`, as ``Finish`` does.
  ///
  /// - Throws: ``NavigationError`` kind `.noSubFlow` when no such sub-flow awaits a result, or
  ///   `.resultTypeMismatch` when its caller awaits another type.
  public func finish(_ identifier: RouteElementIdentifier, with result: some Sendable)
    async throws
  {
    try await perform(.finish(identifier, result: result))
  }

  /// Suspends until `flow` is resolved; `start` must hand `flow` to the queue (or resolve it).
  ///
  /// The continuation is resumed exactly once: `ResolveOnce` delivers once, and resumes with
  /// `nil` when the flow is released unresolved, so a dropped request never leaves it hanging.
  func awaitSubFlow<Value: Sendable>(
    _ identifier: RouteElementIdentifier, of type: Value.Type,
    start: @MainActor (PendingSubFlow) -> Void
  ) async throws -> Value? {
    let flow = PendingSubFlow(identifier, of: type)
    let outcome = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        flow.resolver = ResolveOnceOutcome(whenReleased: .success(nil)) {
          continuation.resume(with: $0)
        }
        start(flow)
      }
    } onCancel: {
      Task { @MainActor in flow.cancel(on: self) }
    }
    guard let outcome else { return nil }
    guard let value = outcome as? Value else {
      throw failure(
        .resultTypeMismatch(
          expected: flow.expectedType, got: String(reflecting: Swift.type(of: outcome))),
        ShowForResult(identifier, of: type).description)
    }
    return value
  }

  /// Shows `identifier` through the queue and registers `flow` once it is on the route.
  func start(
    _ flow: PendingSubFlow, showing identifier: RouteElementIdentifier, context: (any Sendable)?
  ) {
    flow.identifier = identifier
    let action = NavigationAction.show(identifier, context: context)
    if let recorder {
      do {
        if case .answered(let result) = try recorder(action) {
          flow.resolve(.success(result))
          return
        }
      } catch {
        flow.resolve(.failure(error))
        return
      }
    }
    queue.submit(
      { navigator in try await navigator.showSubFlow(flow, action: action) }, on: self
    ) { result in
      if case .failure(let error) = result { flow.resolve(.failure(error)) }
    }
  }

  private func showSubFlow(_ flow: PendingSubFlow, action: NavigationAction) async throws {
    guard !flow.isCancelled else { return }
    let before = Set(visibleRoutables.map { ObjectIdentifier($0) })
    try await RouteResolver(navigator: self).run(action)
    let routables = visibleRoutables
    let anchor =
      routables.last {
        $0.routeIdentifier == flow.identifier && !before.contains(ObjectIdentifier($0))
      }
      ?? routables.last { $0.routeIdentifier == flow.identifier }
    guard let anchor else { return }
    if flow.isCancelled {
      removeFromRoute(anchor)
      return
    }
    flow.anchor = anchor
    subFlows.append(flow)
  }

  /// Carries out `.finish`: hides the topmost sub-flow shown as `identifier`, then resumes its
  /// caller with `result`.
  func finishSubFlow(
    _ identifier: RouteElementIdentifier, with result: any Sendable, describedAs request: String
  ) throws {
    guard
      let index = subFlows.lastIndex(where: { flow in
        flow.identifier == identifier && flow.anchor.map { model.position(of: $0) != nil } == true
      })
    else {
      throw failure(.noSubFlow, request)
    }
    let flow = subFlows[index]
    guard flow.accepts(result) else {
      throw failure(
        .resultTypeMismatch(
          expected: flow.expectedType, got: String(reflecting: type(of: result))), request)
    }
    subFlows.remove(at: index)
    if let anchor = flow.anchor { removeFromRoute(anchor) }
    flow.resolve(.success(result))
  }

  /// Removes `routable` and everything above it.
  ///
  /// Its modal level goes too when it is the first of one; the root is never removed.
  func removeFromRoute(_ routable: any Routable) {
    guard let position = model.position(of: routable),
      position.level > 0 || position.index > 0
    else { return }
    changeLevels { levels in
      if position.index == 0 {
        levels = Array(levels.prefix(position.level))
      } else {
        levels = Array(levels.prefix(position.level + 1))
        levels[position.level] = Array(levels[position.level].prefix(position.index))
      }
    }
  }

  /// Resumes with `nil` the callers of sub-flows that left the route without a result.
  func resolveSubFlowsOffTheRoute() {
    guard !subFlows.isEmpty else { return }
    let onRoute = Set(visibleRoutables.map { ObjectIdentifier($0) })
    let (kept, gone) = subFlows.reduce(into: ([PendingSubFlow](), [PendingSubFlow]())) {
      split, flow in
      if let anchor = flow.anchor, onRoute.contains(ObjectIdentifier(anchor)) {
        split.0.append(flow)
      } else {
        split.1.append(flow)
      }
    }
    subFlows = kept
    for flow in gone { flow.resolve(.success(nil)) }
  }
}

/// The resolver of a sub-flow's caller.
typealias ResolveOnceOutcome = ResolveOnce<PendingSubFlow.Outcome>
