import Foundation
import SideEffects

/// Submits the typed text: trims its spaces, checks it with
/// ``TitleEditorDependencies/problem``, and records the outcome.
///
/// Returns the title to save, or `nil` when it was refused; the caller saves it, so the
/// feature never needs to know what a title is for.
package struct SubmitTitle: ReturningSideEffect {
  /// The text as typed.
  package var text: String

  package init(_ text: String) {
    self.text = text
  }

  package func sideEffect(
    _ context: SideEffectContext<TitleEditorState, TitleEditorDependencies>
  ) async throws -> String? {
    let title = text.trimmingCharacters(in: .whitespaces)
    if let problem = context.dependencies.problem(title) {
      await context.dispatch(RefuseTitle(reason: problem))
      return nil
    }
    await context.dispatch(AcceptTitle(title: title))
    return title
  }
}
