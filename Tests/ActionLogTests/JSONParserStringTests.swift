import ActionLog
import Foundation
import Testing

/// The diff parser's strings: read in one decode whether or not they hold escapes, and the same
/// string as decoding each run between escapes on its own, which is what it did before.
@Suite("The JSON parser's strings")
struct JSONParserStringTests {
  @Test(
    "a string reads as the JSON decoder reads it",
    arguments: [
      #""plain""#, #""ünïcode 😀""#, #""tab\there""#, #""q\"uote\\ and \/""#, #""\u00e9t\u00E9""#,
      #""pair \ud83d\ude00!""#, #""\b\f\n\r\t""#, #""""#, #""\\""#, #""end\n""#,
    ])
  func matchesTheDecoder(text: String) throws {
    let expected = try JSONDecoder().decode(String.self, from: Data(text.utf8))
    #expect(try JSONParser.parse(Array(text.utf8)) == .string(expected))
  }

  @Test("a lone surrogate reads as U+FFFD, as invalid UTF-8 does")
  func loneSurrogate() throws {
    #expect(try JSONParser.parse(Array(#""a\ud800b""#.utf8)) == .string("a\u{FFFD}b"))
    #expect(try JSONParser.parse(Array(#""\udc00""#.utf8)) == .string("\u{FFFD}"))
  }

  @Test("invalid UTF-8 next to escapes reads as decoding each run between escapes on its own")
  func invalidBytesAroundEscapes() throws {
    var random = IncrementalDiffTests.SeededGenerator(state: 35)
    let pieces: [[UInt8]] = [
      [0xE2, 0x82], [0xAC], [0xC3], [0xA9], [0xF0, 0x9F], [0x98, 0x80], [0xFF], [0x80],
      Array("ab".utf8), Array("é".utf8), Array(#"\n"#.utf8), Array(#"\u00e9"#.utf8),
      Array(#"\u0082"#.utf8), Array(#"\ud83d\ude00"#.utf8), Array(#"\ud800"#.utf8),
      Array(#"\""#.utf8),
    ]
    for _ in 0..<2_000 {
      var body: [UInt8] = []
      for _ in 0..<Int.random(in: 0...6, using: &random) {
        body += pieces.randomElement(using: &random) ?? []
      }
      let text = [UInt8(ascii: "\"")] + body + [UInt8(ascii: "\"")]
      let expected = try Self.decodedRunByRun(body)
      #expect(try JSONParser.parse(text) == .string(expected), "\(body)")
    }
  }

  @Test("an unterminated string and a control character are refused")
  func refused() {
    #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(#""abc"#.utf8)) }
    #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(#""a\n"#.utf8)) }
    #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array("\"a\nb\"".utf8)) }
  }

  /// The reference: each run of bytes between escapes decoded on its own, each escape its scalar.
  static func decodedRunByRun(_ body: [UInt8]) throws -> String {
    var result = ""
    var run: [UInt8] = []
    var index = 0
    func hex4(at start: Int) -> UInt32? {
      guard start + 4 <= body.count else { return nil }
      return UInt32(String(decoding: body[start..<start + 4], as: UTF8.self), radix: 16)
    }
    while index < body.count {
      guard body[index] == UInt8(ascii: "\\"), index + 1 < body.count else {
        run.append(body[index])
        index += 1
        continue
      }
      result += String(decoding: run, as: UTF8.self)
      run = []
      let kind = body[index + 1]
      index += 2
      switch kind {
      case UInt8(ascii: "n"): result.unicodeScalars.append("\n")
      case UInt8(ascii: "\""): result.unicodeScalars.append("\"")
      case UInt8(ascii: "u"):
        let first = try #require(hex4(at: index))
        index += 4
        if (0xD800..<0xDC00).contains(first), index + 1 < body.count,
          body[index] == UInt8(ascii: "\\"), body[index + 1] == UInt8(ascii: "u"),
          let second = hex4(at: index + 2), (0xDC00..<0xE000).contains(second),
          let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        {
          index += 6
          result.unicodeScalars.append(scalar)
        } else {
          result.unicodeScalars.append(Unicode.Scalar(first) ?? "\u{FFFD}")
        }
      default: Issue.record("the test's pieces hold no other escape")
      }
    }
    return result + String(decoding: run, as: UTF8.self)
  }
}
