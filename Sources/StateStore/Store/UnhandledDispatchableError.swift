/// The error a store reports when a dispatchable reaches it that nothing knows how to run.
public struct UnhandledDispatchableError: Error, CustomStringConvertible {
  /// The type of the dispatchable.
  public let typeName: String

  /// A readable explanation.
  public var description: String {
    "\(typeName) reached the store, but it is neither a StateUpdater of this store's state "
      + "nor an ExecutableDispatchable (a side effect or navigation request)"
  }
}
