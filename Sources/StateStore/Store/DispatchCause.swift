/// What dispatched an updater: a side effect, a user action, a tool.
///
/// Side effects set the cause for everything they dispatch; an action log records it next to each
/// updater, so a replayed session tells which effect or action produced each change.
public struct DispatchCause: Sendable, Hashable, Codable, CustomStringConvertible {
  /// A readable name, such as the side effect's type or `"user: add"`.
  public var name: String

  /// Creates a cause with a readable name.
  public init(_ name: String) {
    self.name = name
  }

  /// The cause in effect for the current task; `nil` outside any side effect or labelled action.
  @TaskLocal public static var current: DispatchCause?

  /// The cause's name.
  public var description: String { name }
}
