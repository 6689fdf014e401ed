/// The navigator's model of the screens: modal levels of pushed routables.
///
/// Levels and each level's stack are bottom first; level 0 starts with the root, and no level
/// is empty. A value with no behaviour of its own beyond answering where a routable sits; the
/// ``Navigator`` changes it and reports each change.
@MainActor
struct RouteModel {
  /// Where a routable sits: its modal level and its index in that level's stack.
  struct Position: Equatable {
    var level: Int
    var index: Int
  }

  private(set) var levels: [[any Routable]]

  init(root: any Routable) {
    levels = [[root]]
  }

  /// Every level's identifiers, in order.
  ///
  /// - Complexity: O(routables on the route).
  var route: Route {
    levels.flatMap { level in level.map(\.routeIdentifier) }
  }

  /// Every level's routables, in order.
  ///
  /// - Complexity: O(routables on the route).
  var visibleRoutables: [any Routable] {
    levels.flatMap { $0 }
  }

  /// The topmost routable.
  var topmost: (any Routable)? {
    levels.last?.last
  }

  /// The topmost position of `routable`.
  ///
  /// - Complexity: O(routables on the route).
  func position(of routable: any Routable) -> Position? {
    for level in levels.indices.reversed() {
      if let index = levels[level].lastIndex(where: { $0 === routable }) {
        return Position(level: level, index: index)
      }
    }
    return nil
  }

  /// The topmost position of an element identified `identifier`.
  ///
  /// - Complexity: O(routables on the route).
  func topmostPosition(of identifier: RouteElementIdentifier) -> Position? {
    for level in levels.indices.reversed() {
      if let index = levels[level].lastIndex(where: { $0.routeIdentifier == identifier }) {
        return Position(level: level, index: index)
      }
    }
    return nil
  }

  /// Applies `change`; returns whether the sequence of routables (by identity) changed.
  ///
  /// - Complexity: O(routables on the route), plus the change's own cost.
  mutating func change(_ change: (inout [[any Routable]]) -> Void) -> Bool {
    let before = levels.flatMap { level in level.map { ObjectIdentifier($0) } }
    change(&levels)
    let after = levels.flatMap { level in level.map { ObjectIdentifier($0) } }
    return before != after
  }
}
