/// What the todo app's side effects are given: the storage, which tests replace with fakes.
public struct TodoDependencies: Sendable {
  /// Where the todos are read from and journaled to.
  public var storage: any TodoStorage

  /// Creates the dependencies.
  public init(storage: any TodoStorage) {
    self.storage = storage
  }
}

/// The store the todo app runs on.
public typealias TodoStore = Store<AppState, TodoDependencies>
