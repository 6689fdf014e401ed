/// Takes a request in place of the navigator, as a test's navigation witness does.
typealias NavigationRecorder = @MainActor (NavigationAction) throws -> Void

extension Navigator {
  /// Hands every request to `recorder` instead of performing it; the route never changes.
  ///
  /// This is how a navigation witness in StateStoreTesting stands in for the navigator.
  package func record(with recorder: @escaping @MainActor (NavigationAction) throws -> Void) {
    self.recorder = recorder
  }
}
