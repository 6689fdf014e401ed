/// The error reported when an effect reaches a store whose state or dependencies differ from
/// the effect's own.
public struct EffectStoreMismatchError: Error, Sendable, CustomStringConvertible {
  /// The effect's type.
  public let effectType: String
  /// The store's type.
  public let storeType: String

  init(effect: some ReturningSideEffect, store: AnyObject) {
    self.effectType = String(reflecting: type(of: effect))
    self.storeType = String(reflecting: type(of: store))
  }

  /// A readable explanation.
  public var description: String {
    "\(effectType) cannot run on a \(storeType): its StateType and Dependencies must be the "
      + "store's state and dependencies types"
  }
}
