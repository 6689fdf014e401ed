/// A scope's registration with its root while the scope has listeners or subscribers.
///
/// The root keeps it, and it keeps the scoped store alive, so a subscription token keeps
/// working even when nobody holds the scope itself; once the scope has no observers left the
/// root drops it, and with it the scope.
@usableFromInline
@MainActor
package final class ScopeNode {
  /// Whether the scope has `(old, new)` listeners, so the root must capture the slice first.
  var keepsOldSlice = false
  /// False once the scope has no observers; the root then drops the node.
  var isActive = true
  let capture: @MainActor () -> Void
  let refresh: @MainActor (SliceOrigin) -> Bool

  init(
    capture: @escaping @MainActor () -> Void,
    refresh: @escaping @MainActor (SliceOrigin) -> Bool
  ) {
    self.capture = capture
    self.refresh = refresh
  }
}
