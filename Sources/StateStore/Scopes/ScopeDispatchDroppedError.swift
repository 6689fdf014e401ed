/// The error a scope reports to ``Store/onUnhandledError`` for a dispatch it could not deliver.
///
/// Nothing traps: a scope that outlives its root, or a row scope whose element was removed,
/// drops what it is given and says so here.
public struct ScopeDispatchDroppedError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Why a dispatch was dropped.
  public enum Reason: Sendable, Hashable {
    /// The root store has been released.
    case rootReleased
    /// The element the scope stands for is no longer in its array; `id` describes it.
    case elementRemoved(id: String)
  }

  /// The scope's path from the root, such as `profile` or `todos/row`.
  public let scope: String
  /// The dispatchable's type.
  public let dispatchableType: String
  /// Why it was dropped.
  public let reason: Reason

  /// Creates the error.
  public init(scope: String, dispatchableType: String, reason: Reason) {
    self.scope = scope
    self.dispatchableType = dispatchableType
    self.reason = reason
  }

  /// A readable explanation.
  public var description: String {
    switch reason {
    case .rootReleased:
      return "\(dispatchableType) dispatched through scope \(scope) was dropped: the root store "
        + "has been released (expected when an effect or a screen outlives its app, as at the end "
        + "of a test; only this dispatch is lost)"
    case .elementRemoved(let id):
      return "\(dispatchableType) dispatched through scope \(scope) was dropped: the element "
        + "with id \(id) is no longer in the array"
    }
  }
}
