/// Anything that can be sent to a ``Store``: state updaters, side effects and navigation requests.
public protocol Dispatchable: Sendable {}
