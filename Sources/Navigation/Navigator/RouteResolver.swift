/// Resolves one request on a navigator: which routable answers it, carrying out its
/// instruction, and checking that the instruction did what was asked.
///
/// The navigator's queue makes one for each request it runs; the resolver changes the route only
/// through `Navigator.changeLevels(_:)`, so every step is reported.
@MainActor
struct RouteResolver {
  let navigator: Navigator

  func run(_ action: NavigationAction) async throws {
    switch action {
    case .show(let identifier, let context):
      try await resolveShow(identifier, context: context, describedAs: action.description)
    case .hide(let identifier, let context):
      try await resolveHide(identifier, context: context, describedAs: action.description)
    case .navigate(let target, let contexts):
      try await resolveNavigate(to: target, contexts: contexts, describedAs: action.description)
    }
  }

  /// The first of `candidates` whose table has `request`, with its instruction.
  private func handler(
    of request: NavigationRequest, among candidates: some Sequence<any Routable>
  ) -> (any Routable, NavigationInstruction)? {
    for candidate in candidates {
      if let configured = candidate as? any RoutableWithConfiguration,
        let instruction = configured.navigationConfiguration[request]
      {
        return (configured, instruction)
      }
    }
    return nil
  }

  // MARK: - Show

  private func resolveShow(
    _ identifier: RouteElementIdentifier, context: (any Sendable)?, describedAs request: String
  ) async throws {
    let navigationRequest = NavigationRequest.show(identifier)
    guard
      let (handler, instruction) = handler(
        of: navigationRequest, among: navigator.visibleRoutables.reversed())
    else { throw navigator.failure(.unhandled, request) }
    try await apply(
      instruction,
      step: Step(
        request: navigationRequest, description: request, handler: handler, context: context,
        hidden: nil))
    guard navigator.currentRoute.contains(identifier) else {
      throw navigator.failure(
        .incomplete, request,
        detail:
          "\"\(handler.routeIdentifier)\" handled it, but \"\(identifier)\" is not on the route")
    }
  }

  // MARK: - Hide

  private func resolveHide(
    _ identifier: RouteElementIdentifier?, context: (any Sendable)?, describedAs request: String
  ) async throws {
    let routables = navigator.visibleRoutables
    let index: Int
    if let identifier {
      guard let found = routables.lastIndex(where: { $0.routeIdentifier == identifier }) else {
        throw navigator.failure(.notOnRoute, request)
      }
      index = found
    } else {
      index = routables.count - 1
    }
    try await hide(routables, at: index, context: context, describedAs: request)
  }

  /// Hides `routables[index]`, asking it first and then the routables beneath it.
  private func hide(
    _ routables: [any Routable], at index: Int, context: (any Sendable)?,
    describedAs request: String
  ) async throws {
    guard index > 0, routables.indices.contains(index) else {
      throw navigator.failure(.cannotHideRoot, request)
    }
    let hidden = routables[index]
    let navigationRequest = NavigationRequest.hide(hidden.routeIdentifier)
    guard
      let (handler, instruction) = handler(
        of: navigationRequest, among: routables[...index].reversed())
    else { throw navigator.failure(.unhandled, request) }
    try await apply(
      instruction,
      step: Step(
        request: navigationRequest, description: request, handler: handler, context: context,
        hidden: hidden))
    guard navigator.model.position(of: hidden) == nil else {
      throw navigator.failure(
        .incomplete, request,
        detail: "\"\(handler.routeIdentifier)\" handled it, but the routable is still on the route")
    }
  }

  // MARK: - Navigate

  private func resolveNavigate(
    to target: Route, contexts: [RouteElementIdentifier: any Sendable],
    describedAs request: String
  ) async throws {
    guard target.first == navigator.root.routeIdentifier else {
      throw navigator.failure(
        .invalidTarget, request, detail: "the root is \"\(navigator.root.routeIdentifier)\"")
    }
    // Each step must shorten the route or extend the common prefix; tables that undo each
    // other's work would otherwise loop forever.
    var stepsLeft = 2 * (navigator.currentRoute.count + target.count)
    while navigator.currentRoute != target {
      guard stepsLeft > 0 else {
        throw navigator.failure(.incomplete, request, detail: "the routing tables did not converge")
      }
      stepsLeft -= 1
      do {
        try await navigateOneStep(to: target, contexts: contexts)
      } catch var error as NavigationError {
        error.navigationTarget = target
        throw error
      }
    }
  }

  private func navigateOneStep(
    to target: Route, contexts: [RouteElementIdentifier: any Sendable]
  ) async throws {
    let route = navigator.currentRoute
    let common = zip(route, target).prefix { $0 == $1 }.count
    if route.count > common {
      let routables = navigator.visibleRoutables
      let top = routables.count - 1
      let request = NavigationAction.hide(routables[top].routeIdentifier, context: nil)
      try await hide(routables, at: top, context: nil, describedAs: request.description)
    } else {
      let identifier = target[route.count]
      let request = NavigationAction.show(identifier, context: nil).description
      try await resolveShow(identifier, context: contexts[identifier], describedAs: request)
      guard navigator.currentRoute.starts(with: target.prefix(route.count + 1)) else {
        throw navigator.failure(
          .incomplete, request, detail: "the route left the way to the target")
      }
    }
  }
}
