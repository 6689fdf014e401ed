import Foundation

/// A mistake in how a screen was wired that the compiler cannot see, reported once per place
/// where it was made, on standard error (Xcode shows it in the console).
///
/// Reported where the mistake was made, the line that created the controller or connection,
/// not where it shows.
@MainActor
package enum RuntimeWarning {
  /// Where each warning goes; tests replace it to read what was reported.
  package static var report: @MainActor (_ message: String) -> Void = { message in
    try? FileHandle.standardError.write(
      contentsOf: Data("StateStore runtime warning: \(message)\n".utf8))
  }

  /// The places already reported, so that each is reported once.
  private static var reported: Set<String> = []

  /// Reports `message` about the line at `fileID`:`line`, unless that line was reported before.
  package static func once(_ message: String, fileID: String, line: Int) {
    let place = "\(fileID):\(line)"
    guard reported.insert(place).inserted else { return }
    report("\(place): \(message)")
  }

  /// Forgets which places were reported; for tests.
  package static func reset() {
    reported.removeAll()
  }

  /// The warning of a screen whose store is released before the screen used it.
  package static func storeReleased(
    _ what: String, state: Any.Type, fileID: String, line: Int
  ) {
    once(
      "\(what) made here has no store: the Store<\(state), …> it was given was released before "
        + "it was used, so nothing is shown. Handles, controllers and connections do not keep a "
        + "store alive; keep the store (or the scope) where the app or the feature is mounted.",
      fileID: fileID, line: line)
  }
}
