import Testing

/// A state that names the dependencies its effects take, so that a ``TestStore`` of it infers
/// their type, and `.fake` or `.test(...)` finds the static member without spelling the type.
///
/// Conform in the test target, in one line, when the feature itself does not:
///
/// ```swift
/// extension ProfileState: StateWithDependencies {
///   typealias Dependencies = ProfileDependencies
/// }
///
/// let store = TestStore(initialState: ProfileState(), dependencies: .fake)
/// ```
public protocol StateWithDependencies: State {
  /// The dependencies of the store this state lives in.
  associatedtype Dependencies: Sendable
}

extension TestStore where S: StateWithDependencies, Dependencies == S.Dependencies {
  /// Creates a test store whose dependency type is the state's, so that a static member such as
  /// `.fake` or `.test(clock:)` is found without naming the type.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - dependencies: What effects receive; pass fakes and a ``TestClock``.
  ///   - interceptors: Interceptors of the underlying store, in order.
  ///   - sourceLocation: Where the store is created: leftover effects and updaters fail the
  ///     test there.
  public convenience init(
    initialState: S, dependencies: S.Dependencies, interceptors: [StoreInterceptor<S>] = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    // Through `wrapping:`: the general initialiser with these labels would be this one again.
    let store = Store(
      initialState: initialState, dependencies: dependencies, interceptors: interceptors)
    self.init(
      wrapping: store,
      at: sourceLocation)
  }
}
