/// What the terminal loop drives: something that draws frames and reacts to keys.
///
/// The real terminal (``TerminalRunner``) and the headless test harness drive the same
/// application, so what the tests read is exactly what a user sees.
@MainActor
package protocol TerminalApplication: AnyObject {
  /// The exit status once the application has finished, `nil` while it runs.
  var exitCode: Int32? { get }

  /// Reacts to one key press.
  func handle(_ key: Key) async

  /// Draws the current screen into a frame of the given size.
  func frame(width: Int, height: Int) -> Frame

  /// Catches up with what changed outside the application, such as another process's changes
  /// to the store; called a few times a second while no key arrives.
  ///
  /// - Returns: Whether anything changed, and so whether the screen must be drawn again.
  func refresh() async -> Bool
}
