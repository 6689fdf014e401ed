import SideEffects

/// Shows `error` on the status line, in the words ``StatusLineDependencies/describe`` gives.
package struct ReportError: SideEffect {
  /// The error to report.
  package var error: any Error

  package init(_ error: any Error) {
    self.error = error
  }

  package func sideEffect(
    _ context: SideEffectContext<StatusLineState, StatusLineDependencies>
  ) async throws {
    await context.dispatch(ShowStatus(context.dependencies.describe(error)))
  }
}
