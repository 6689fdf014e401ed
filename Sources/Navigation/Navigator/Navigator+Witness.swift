/// What a recorder standing in for the navigator decided about one request.
package enum RecorderVerdict {
  /// The navigator carries out the request, as it would without a recorder.
  case perform
  /// The request is taken care of; a sub-flow's caller gets this result (`nil` for none).
  case answered((any Sendable)?)
}

/// Takes a request before the navigator, as a test's navigation witness does.
package typealias NavigationRecorder = @MainActor (NavigationAction) throws -> RecorderVerdict

extension Navigator {
  /// Hands every request to `recorder` first; it decides whether the navigator still carries it
  /// out.
  ///
  /// This is how a navigation witness in StateStoreTesting stands in for the navigator.
  package func record(with recorder: @escaping NavigationRecorder) {
    self.recorder = recorder
  }
}
