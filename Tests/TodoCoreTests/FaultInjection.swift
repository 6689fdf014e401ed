import Foundation
import PersistenceTestSupport
import StatePersistence
import Synchronization
import TerminalKit

@testable import TodoCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FaultyCalls {
  /// The operating system's calls with a planned failure: the `number`th call of `kind` fails
  /// with `code`, and with `persistent` every later call of that kind too (a disk that stays
  /// broken); with `shortWrites`, writes take at most half of what they are given.
  convenience init(
    failing kind: SystemCallKind, number: Int, code: Int32 = EIO, persistent: Bool = false,
    shortWrites: Bool = false
  ) {
    self.init(
      POSIXCalls(),
      fault: Fault(
        kind: kind, occurrence: number, code: code, persistent: persistent,
        shortWrites: shortWrites))
  }

  /// The operating system's calls, failing none of them: only counting the calls of each kind.
  static func counting() -> FaultyCalls { FaultyCalls(POSIXCalls()) }

  /// Whether the fault failed at least one call.
  var hit: Bool { injected > 0 }

  /// The kinds of call made so far: all of them counted, failed or not.
  var kindsCalled: Set<SystemCallKind> { Set(calls.filter { $0.value > 0 }.keys) }

  /// How many calls of `kind` were made so far.
  func calls(of kind: SystemCallKind) -> Int { calls[kind, default: 0] }
}

/// A console that keeps what a command writes; its output, and its messages, can be made to
/// fail.
final class RecordingConsole: Sendable {
  private let text = Mutex((output: "", error: ""))
  let failsOutput: Bool
  /// Whether messages are lost, as on a standard error that is a full disk.
  let failsMessages: Bool

  init(failsOutput: Bool = false, failsMessages: Bool = false) {
    self.failsOutput = failsOutput
    self.failsMessages = failsMessages
  }

  var output: String { text.withLock { $0.output } }
  var error: String { text.withLock { $0.error } }

  var console: Console {
    Console(
      checkedOutput: { [self] written in
        if failsOutput { throw OutputError(reason: "No space left on device") }
        text.withLock { $0.output += written }
      },
      error: { [self] written in
        if !failsMessages { text.withLock { $0.error += written } }
      })
  }
}
