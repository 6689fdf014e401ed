/// Carrying out one instruction of a routing table.
extension RouteResolver {
  /// One request being carried out by one routable's instruction.
  struct Step {
    let request: NavigationRequest
    let description: String
    let handler: any Routable
    let context: (any Sendable)?
    /// For a `Hide`, the routable being hidden.
    let hidden: (any Routable)?
  }

  /// Carries out `instruction`; returns `false` when an `.optionalCustom` handler declined.
  func apply(_ instruction: NavigationInstruction, step: Step) async throws -> Bool {
    guard let handlerPosition = navigator.model.position(of: step.handler) else {
      throw navigator.failure(.incomplete, step.description, detail: "the handler left the route")
    }
    switch instruction {
    case .push(let factory):
      let routable = try build(factory, for: step)
      navigator.add(routable, context: step.context) { $0[$0.count - 1].append(routable) }
    case .presentModally(let factory):
      let routable = try build(factory, for: step)
      navigator.add(routable, context: step.context) { $0.append([routable]) }
    case .pop:
      try pop(step, handlerLevel: handlerPosition.level)
    case .popToRoot:
      truncate(level: handlerPosition.level, keeping: 1)
    case .popTo(let identifier):
      guard let target = navigator.model.topmostPosition(of: identifier) else {
        throw navigator.failure(.notOnRoute, step.description, detail: "popTo(\"\(identifier)\")")
      }
      truncate(level: target.level, keeping: target.index + 1)
    case .dismissModally(let behaviour):
      try dismiss(step, behaviour: behaviour, handlerLevel: handlerPosition.level)
    case .custom(let handler):
      try await handler(CustomNavigation(navigator: navigator, step: step))
    case .optionalCustom(let handler):
      return try await handler(CustomNavigation(navigator: navigator, step: step))
    }
    return true
  }

  private func build(_ factory: RoutableFactory, for step: Step) throws -> any Routable {
    guard case .show(let identifier) = step.request else {
      return try build(
        factory, identifier: nil, context: step.context, describedAs: step.description)
    }
    do {
      return try build(
        factory, identifier: identifier, context: step.context, describedAs: step.description)
    } catch var error as NavigationError where error.detail == nil {
      error = NavigationError(
        error.kind, request: error.request, route: error.route,
        detail: "built by the table of \"\(step.handler.routeIdentifier)\"",
        underlyingError: error.underlyingError)
      throw error
    }
  }

  /// Runs `factory`, wrapping what it throws in a ``NavigationError`` kind `.factoryFailed`, and
  /// checks that it built `identifier`.
  func build(
    _ factory: RoutableFactory, identifier: RouteElementIdentifier?, context: (any Sendable)?,
    describedAs request: String
  ) throws -> any Routable {
    let routable: any Routable
    do {
      routable = try factory(context)
    } catch {
      throw navigator.failure(.factoryFailed, request, underlyingError: error)
    }
    if let identifier, routable.routeIdentifier != identifier {
      throw navigator.failure(.identifierMismatch(built: routable.routeIdentifier), request)
    }
    return routable
  }

  private func pop(_ step: Step, handlerLevel: Int) throws {
    let target: RouteModel.Position
    if let hidden = step.hidden, let position = navigator.model.position(of: hidden) {
      target = position
    } else {
      target = RouteModel.Position(
        level: handlerLevel, index: navigator.levels[handlerLevel].count - 1)
    }
    guard target.index > 0 else {
      throw navigator.failure(
        target.level == 0 ? .cannotHideRoot : .cannotPopFirstOfModal, step.description,
        detail: "pop, in the table of \"\(step.handler.routeIdentifier)\"")
    }
    truncate(level: target.level, keeping: target.index)
  }

  private func dismiss(
    _ step: Step, behaviour: NavigationInstruction.ModalDismissBehaviour, handlerLevel: Int
  ) throws {
    let first: Int
    if let hidden = step.hidden, let hiddenLevel = navigator.model.position(of: hidden)?.level,
      hiddenLevel >= 1
    {
      first = behaviour == .soft ? hiddenLevel : min(hiddenLevel, handlerLevel + 1)
    } else if navigator.levels.count > handlerLevel + 1 {
      first = handlerLevel + 1
    } else if handlerLevel >= 1 {
      first = handlerLevel
    } else {
      throw navigator.failure(
        .nothingToDismiss, step.description,
        detail: "dismissModally, in the table of \"\(step.handler.routeIdentifier)\"")
    }
    navigator.changeLevels { $0 = Array($0.prefix(first)) }
  }

  /// Keeps the first `count` routables of `level` and removes every level above it.
  func truncate(level: Int, keeping count: Int) {
    navigator.changeLevels { levels in
      levels = Array(levels.prefix(level + 1))
      levels[level] = Array(levels[level].prefix(count))
    }
  }
}
