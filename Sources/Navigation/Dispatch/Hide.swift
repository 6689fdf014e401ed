/// Hides a route element: `Hide("detail")`, or `Hide()` for the topmost one.
///
/// The routable being hidden is asked first for `.hide(identifier)` in its table, then the
/// routables beneath it, topmost first. Hiding the root, or an identifier that is not on the
/// route, throws.
public struct Hide: NavigationDispatchable {
  /// The element to hide; `nil` hides the topmost element.
  public let identifier: RouteElementIdentifier?
  /// What the instruction receives, if anything.
  public let context: (any Sendable)?

  /// Creates a request to hide the topmost element `identifier`, or the topmost element.
  public init(_ identifier: RouteElementIdentifier? = nil, context: (any Sendable)? = nil) {
    self.identifier = identifier
    self.context = context
  }

  /// The hide action.
  public var navigationAction: NavigationAction { .hide(identifier, context: context) }
}
