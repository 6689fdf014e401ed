import Glibc
import Testing

@testable import TodoCore

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
}
