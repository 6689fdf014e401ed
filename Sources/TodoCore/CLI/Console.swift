import Foundation

/// Where a command writes: standard output for results, standard error for messages.
///
/// Tests pass a console that collects the text.
public struct Console: Sendable {
  /// Writes to standard output.
  public var output: @Sendable (String) -> Void
  /// Writes to standard error.
  public var error: @Sendable (String) -> Void

  /// Creates a console from two writers.
  public init(
    output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void
  ) {
    self.output = output
    self.error = error
  }

  /// The process's standard output and standard error, unbuffered: each call is one write.
  public static let standard = Console(
    output: { try? FileHandle.standardOutput.write(contentsOf: Data($0.utf8)) },
    error: { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) })
}
