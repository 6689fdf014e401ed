import Foundation
import SideEffects

/// What the date screen's text means: a date, no date, or nothing it can use.
package enum DateChoice: Hashable, Sendable {
  /// This date, `YYYY-MM-DD`.
  case date(String)
  /// No due date (`none`, or nothing typed).
  case none
  /// Not a date, for this reason.
  case refused(String)
}

/// What the detail feature asks of whoever mounts it.
package struct TodoDetailDependencies: Sendable {
  /// What `text` (already trimmed, not empty, not `none`) names: the app owns the date forms and
  /// the clock that resolves `today` or `+3d`.
  package var resolveDate: @Sendable (String) -> DateChoice

  package init(resolveDate: @escaping @Sendable (String) -> DateChoice) {
    self.resolveDate = resolveDate
  }
}

/// Submits the text typed on the date screen: `none` or nothing is no date, anything else is
/// resolved by ``TodoDetailDependencies/resolveDate``; records the outcome.
///
/// Returns the choice; the caller saves a date or no date, and keeps the screen open on a
/// refusal, so the feature never needs to know how a due date is stored.
package struct SubmitDate: ReturningSideEffect {
  /// The text as typed.
  package var text: String

  package init(_ text: String) {
    self.text = text
  }

  package func sideEffect(
    _ context: SideEffectContext<TodoDetailState, TodoDetailDependencies>
  ) async throws -> DateChoice {
    let typed = text.trimmingCharacters(in: .whitespaces)
    let choice = typed.isEmpty || typed == "none" ? .none : context.dependencies.resolveDate(typed)
    switch choice {
    case .date(let date): await context.dispatch(AcceptDate(date: date))
    case .none: await context.dispatch(AcceptDate(date: nil))
    case .refused(let reason): await context.dispatch(RefuseDate(reason: reason))
    }
    return choice
  }
}
