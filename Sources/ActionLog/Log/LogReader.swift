import Foundation
import StateStore

/// Reads a log line by line: checks the header, then yields entries and checkpoints in order.
struct LogReader<S: State> {
  enum Event {
    case entry(ActionLogEntry<S>)
    /// A checkpoint line; its state is decoded only if someone verifies it.
    case checkpoint(sequence: Int, line: Int, text: Data)
    /// An effect line, read only when the reader ``readsEffects``.
    case effect(EffectLine, line: Int)
  }

  private let bytes: [UInt8]
  /// The complete lines, without the torn tail.
  private let lines: ArraySlice<Range<Int>>
  /// Where the torn tail starts, by the rule of ``JSONLines``, if there is one.
  private let tornStart: Int?
  private let registry: ActionLogRegistry<S>
  private let acceptsTornLastLine: Bool
  /// Whether effect lines are read as events; they are skipped otherwise.
  private let readsEffects: Bool
  private let decoder = JSONDecoder()
  /// The index in `lines` of the next line to read.
  private var nextIndex: Int
  /// Whether the torn tail, read after the last line, has been read.
  private var isAtEnd = false
  private var lastSequence: Int?
  /// The line number of a torn last line that was skipped, if any.
  private(set) var tornLine: Int?

  /// - Complexity: O(size of the log), to find its lines.
  init(
    data: Data, registry: ActionLogRegistry<S>, acceptsTornLastLine: Bool,
    readsEffects: Bool = false
  ) throws(ActionLogError) {
    self.readsEffects = readsEffects
    try registry.validate()
    self.bytes = [UInt8](data)
    (self.lines, self.tornStart) = JSONLines.readable(bytes)
    self.registry = registry
    self.acceptsTornLastLine = acceptsTornLastLine
    self.nextIndex = lines.startIndex
    try readHeader()
  }

  /// The next entry or checkpoint, or `nil` at the end of the log.
  mutating func next() throws(ActionLogError) -> Event? {
    while let (text, line) = try nextLine() {
      let decoded: LogLine<S>
      do {
        decoded = try decoder.decode(LogLine<S>.self, from: text, configuration: registry)
      } catch {
        throw LineFailure.error(for: error, line: line)
      }
      switch decoded {
      case .checkpoint(let sequence):
        return .checkpoint(sequence: sequence, line: line, text: text)
      case .effect:
        guard readsEffects else { continue }
        return .effect(
          try EffectLine.parse(text, line: line, after: lastSequence ?? 0), line: line)
      case .unrecorded(let sequence, let type, let reason):
        throw .unrecordedEntry(line: line, sequence: sequence, type: type, reason: reason)
      case .entry(let sequence, let type, let updater, let cause, let time, let site, let effect):
        if let lastSequence, sequence <= lastSequence {
          throw .outOfOrder(line: line, sequence: sequence, previous: lastSequence)
        }
        lastSequence = sequence
        return .entry(
          ActionLogEntry(
            sequence: sequence, line: line, type: type, updater: updater,
            cause: cause, time: time, site: site, effect: effect))
      }
    }
    return nil
  }

  private mutating func readHeader() throws(ActionLogError) {
    guard let (text, line) = try nextLine() else {
      if tornLine != nil { return }
      throw .missingHeader
    }
    _ = try ActionLogHeader.validated(text, line: line)
  }

  /// The next non-blank line and its number; a torn tail is thrown or skipped.
  private mutating func nextLine() throws(ActionLogError) -> (Data, Int)? {
    while nextIndex < lines.endIndex {
      let text = Self.trimmed(bytes[lines[nextIndex]])
      nextIndex += 1
      if Self.isBlank(text) { continue }
      // Line numbers count from 1 and `lines` from 0, so this line's number is the next index.
      return (Data(text), nextIndex)
    }
    guard let tornStart, !isAtEnd else { return nil }
    isAtEnd = true
    let lineNumber = lines.count + 1
    let tail = Self.trimmed(bytes[tornStart...])
    if Self.isBlank(tail) { return nil }
    // A last line that lacks only its newline is complete: a hand-edited file, not a crash.
    if !tail.contains(0x0A), JSONLines.isJSON(tail) { return (Data(tail), lineNumber) }
    guard acceptsTornLastLine else { throw .tornLastLine(line: lineNumber) }
    tornLine = lineNumber
    return nil
  }

  private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    line.last == 0x0D ? line.dropLast() : line
  }

  private static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
    line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
  }
}
