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
    case .showAll(let identifiers, let context):
      for identifier in identifiers {
        try await resolveShow(identifier, context: context, describedAs: action.description)
      }
    case .finish(let identifier, let result):
      try navigator.finishSubFlow(identifier, with: result, describedAs: action.description)
    case .changeRoot(let identifier, let context):
      try installRoot(identifier, context: context, describedAs: action.description)
    }
  }

  /// Offers `request` to `candidates` in order, until one's table holds it and its instruction
  /// does not decline; returns the routable that handled it, or `nil` when none did.
  private func offer(
    _ request: NavigationRequest, to candidates: some Sequence<any Routable>,
    context: (any Sendable)?, hidden: (any Routable)?, describedAs description: String
  ) async throws -> (any Routable)? {
    for candidate in candidates {
      guard let configured = candidate as? any RoutableWithConfiguration,
        let instruction = configured.navigationConfiguration[request]
      else { continue }
      let step = Step(
        request: request, description: description, handler: configured, context: context,
        hidden: hidden)
      if try await apply(instruction, step: step) { return configured }
    }
    return nil
  }

  // MARK: - Root

  /// Replaces the whole route by a new root: the one `changeRoot(to:)` carries, or the one the
  /// navigator's root factory for `identifier` builds.
  private func installRoot(
    _ identifier: RouteElementIdentifier, context: (any Sendable)?, describedAs request: String
  ) throws {
    let newRoot: any Routable
    var rootContext = context
    if let given = context as? RootToInstall {
      newRoot = given.routable
      rootContext = nil
    } else {
      guard let factory = navigator.rootFactories[identifier] else {
        throw navigator.failure(.noRootFactory, request)
      }
      newRoot = try build(factory, identifier: identifier, context: context, describedAs: request)
    }
    navigator.add(newRoot, context: rootContext) { $0 = [[newRoot]] }
  }

  // MARK: - Show

  private func resolveShow(
    _ identifier: RouteElementIdentifier, context: (any Sendable)?, describedAs request: String
  ) async throws {
    guard
      let handler = try await offer(
        .show(identifier), to: navigator.visibleRoutables.reversed(), context: context,
        hidden: nil, describedAs: request)
    else { throw navigator.failure(.unhandled, request) }
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
    guard
      let handler = try await offer(
        .hide(hidden.routeIdentifier), to: routables[...index].reversed(), context: context,
        hidden: hidden, describedAs: request)
    else { throw navigator.failure(.unhandled, request) }
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
    guard let targetRoot = target.first else {
      throw navigator.failure(.invalidTarget, request, detail: "the route is empty")
    }
    if targetRoot != navigator.root.routeIdentifier {
      guard navigator.rootFactories[targetRoot] != nil else {
        throw navigator.failure(
          .invalidTarget, request, detail: "the root is \"\(navigator.root.routeIdentifier)\"")
      }
      do {
        try installRoot(targetRoot, context: contexts[targetRoot], describedAs: request)
      } catch var error as NavigationError {
        error.navigationTarget = target
        throw error
      }
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
    if route.count > common, target.count > common, common > 0,
      try changeBranch(at: common, from: route[common], to: target[common], contexts: contexts)
    {
      return
    }
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

  /// Asks the routable below `index` to switch its branch from `old` to `new` in one step;
  /// returns whether it did.
  private func changeBranch(
    at index: Int, from old: RouteElementIdentifier, to new: RouteElementIdentifier,
    contexts: [RouteElementIdentifier: any Sendable]
  ) throws -> Bool {
    let routables = navigator.visibleRoutables
    let container = routables[index - 1]
    let request = "\(container.routeIdentifier).change(from: \"\(old)\", to: \"\(new)\")"
    let built: (any Routable)?
    do {
      built = try container.change(from: old, to: new, context: contexts[new])
    } catch let error as NavigationError {
      throw error
    } catch {
      throw navigator.failure(.factoryFailed, request, underlyingError: error)
    }
    guard let branch = built else { return false }
    guard branch.routeIdentifier == new else {
      throw navigator.failure(.identifierMismatch(built: branch.routeIdentifier), request)
    }
    guard let position = navigator.model.position(of: routables[index]) else { return false }
    navigator.add(branch, context: contexts[new]) { levels in
      levels = Array(levels.prefix(position.level + 1))
      levels[position.level] = Array(levels[position.level].prefix(position.index)) + [branch]
    }
    return true
  }
}
