extension Store where Dependencies == Void {
  /// Creates a store whose side effects need no dependencies.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - interceptors: Steps every dispatchable passes through, in this order.
  public convenience init(initialState: S = S(), interceptors: [StoreInterceptor<S>] = []) {
    self.init(initialState: initialState, dependencies: (), interceptors: interceptors)
  }
}
