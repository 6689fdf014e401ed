import StateStore

/// What the title editor knows: the last title it accepted and why it last refused one.
///
/// The text being typed stays in the screen's text field, which owns the cursor; the feature
/// decides what a submitted text means.
package struct TitleEditorState: State, Hashable {
  /// The last title a ``SubmitTitle`` accepted, trimmed.
  package var accepted: String?
  /// Why the last ``SubmitTitle`` was refused; `nil` after an accepted one.
  package var refusal: String?

  /// An empty slice: nothing accepted, refused or shown yet.
  package init() {}

  package init(accepted: String? = nil, refusal: String? = nil) {
    self.accepted = accepted
    self.refusal = refusal
  }
}
