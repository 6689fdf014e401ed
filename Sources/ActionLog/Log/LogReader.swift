import Foundation
import StateStore

/// Reads a log line by line: checks the header, then yields entries and checkpoints in order.
struct LogReader<S: State> {
  enum Event {
    case entry(ActionLogEntry<S>)
    /// A checkpoint line; its state is decoded only if someone verifies it.
    case checkpoint(sequence: Int, line: Int, text: Data)
  }

  private let data: Data
  private let registry: ActionLogRegistry<S>
  private let acceptsTornLastLine: Bool
  private let decoder = JSONDecoder()
  private var offset: Data.Index
  private var lineNumber = 0
  private var lastSequence: Int?
  /// The line number of a torn last line that was skipped, if any.
  private(set) var tornLine: Int?

  init(
    data: Data, registry: ActionLogRegistry<S>, acceptsTornLastLine: Bool
  ) throws(ActionLogError) {
    try registry.validate()
    self.data = data
    self.registry = registry
    self.acceptsTornLastLine = acceptsTornLastLine
    self.offset = data.startIndex
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
      case .unrecorded(let sequence, let type, let reason):
        throw .unrecordedEntry(line: line, sequence: sequence, type: type, reason: reason)
      case .entry(let sequence, let type, let updater, let cause, let time):
        if let lastSequence, sequence <= lastSequence {
          throw .outOfOrder(line: line, sequence: sequence, previous: lastSequence)
        }
        lastSequence = sequence
        return .entry(
          ActionLogEntry(
            sequence: sequence, line: line, type: type, updater: updater,
            cause: cause.map(DispatchCause.init), time: time))
      }
    }
    return nil
  }

  private mutating func readHeader() throws(ActionLogError) {
    guard let (text, line) = try nextLine() else {
      if tornLine != nil { return }
      throw .missingHeader
    }
    _ = try LogHeader.validated(text, line: line, decoder: decoder)
  }

  /// The next non-blank line and its number; a torn last line is thrown or skipped.
  private mutating func nextLine() throws(ActionLogError) -> (Data, Int)? {
    while offset < data.endIndex {
      lineNumber += 1
      let newline = data[offset...].firstIndex(of: 0x0A)
      let end = newline ?? data.endIndex
      var text = data[offset..<end]
      offset = newline.map { $0 + 1 } ?? data.endIndex
      if text.last == 0x0D { text = text.dropLast() }
      if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      if newline == nil,
        (try? JSONSerialization.jsonObject(with: Data(text), options: .fragmentsAllowed)) == nil
      {
        // A line without its newline that is not valid JSON is a write cut short.
        guard acceptsTornLastLine else { throw .tornLastLine(line: lineNumber) }
        tornLine = lineNumber
        return nil
      }
      return (Data(text), lineNumber)
    }
    return nil
  }
}
