/// A sub-flow's identifier together with the type of its result, so that showing it and
/// finishing it are checked against each other by the compiler.
///
/// ```swift
/// extension SubFlow where Result == Bool {
///   static let confirmDelete = SubFlow("confirm")
/// }
///
/// let confirmed = try await store.dispatch(ShowForResult(.confirmDelete))  // Bool?
/// try await store.dispatch(Finish(.confirmDelete, with: true))              // must be a Bool
/// ```
public struct SubFlow<Result: Sendable>: Hashable, Sendable {
  /// The identifier of the sub-flow's first routable.
  public let identifier: RouteElementIdentifier

  /// Names the sub-flow whose first routable is identified `identifier`.
  public init(_ identifier: RouteElementIdentifier) {
    self.identifier = identifier
  }
}
