import Glibc
import TerminalKit
import Testing

@Suite("Terminal session")
struct TerminalSessionTests {
  @Test("Standard input that is not a terminal is a usage error with a clear message")
  func notATerminal() throws {
    var descriptors: [Int32] = [0, 0]
    try #require(pipe(&descriptors) == 0)
    defer {
      close(descriptors[0])
      close(descriptors[1])
    }
    #expect(throws: TerminalError.notATerminal(stream: "input")) {
      try TerminalSession(input: descriptors[0], output: descriptors[1])
    }
    let error = TerminalError.notATerminal(stream: "input")
    #expect(error.exitCode == 2)
    #expect(error.description.contains("standard input is not a terminal"))
  }

  @Test("Arming installs the fatal-signal handlers; disarming puts the previous actions back")
  func fatalSignalHandlers() {
    /// The address of the handler installed for a signal, 0 for the default action.
    func handler(of number: Int32) -> Int {
      var current = sigaction()
      _ = sigaction(number, nil, &current)
      return current.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) } ?? 0
    }
    let before = FatalSignalRestore.signals.map(handler(of:))
    FatalSignalRestore.arm(
      input: -1, output: -1, saved: termios(), sequence: TerminalSession.restoreSequence)
    #expect(FatalSignalRestore.isArmed)
    for (number, old) in zip(FatalSignalRestore.signals, before) {
      let now = handler(of: number)
      #expect(now != 0 && now != old, "signal \(number) is handled while armed")
    }
    FatalSignalRestore.disarm()
    #expect(!FatalSignalRestore.isArmed)
    #expect(FatalSignalRestore.signals.map(handler(of:)) == before)
  }
}
