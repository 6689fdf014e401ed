import ActionLog
import Foundation
import Inspector
import TerminalKit

/// Drives the terminal interface without a terminal: press keys, read the frame as text.
///
/// The state and the drawing are the ones `statestore-inspect` runs; only the terminal loop is
/// left out.
struct BrowserHarness {
  var state: BrowserState
  let session: SessionIndex
  var width: Int
  var height: Int
  private var decoder = KeyDecoder()

  /// Indexes `log` whole, as the interface does a file, and shows it at `width` × `height`.
  init(log: String, width: Int = 80, height: Int = 16) {
    session = SessionIndex.reading(log)
    state = BrowserState(title: "shop.jsonl", following: false, session: session)
    self.width = width
    self.height = height
  }

  /// Presses `keys` in order.
  mutating func press(_ keys: Key...) {
    for key in keys {
      state.handle(key, in: session)
      state.sessionGrew(session)
    }
  }

  /// Types `text`, one character at a time.
  mutating func type(_ text: String) {
    for character in text { press(.character(character)) }
  }

  /// Sends raw terminal bytes through the key decoder, as one read.
  mutating func send(bytes: [UInt8]) {
    for key in decoder.decode(bytes) { press(key) }
  }

  /// The frame drawn now, after scrolling to the selection as the application does.
  mutating func frame() -> Frame {
    BrowserView.draw(&state, session: session, width: width, height: height)
  }

  /// The screen's lines, without trailing spaces.
  mutating func lines() -> [String] {
    frame().text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// The screen as text.
  mutating func text() -> String { frame().text }

  /// The line that holds `text`, if one does.
  mutating func line(containing text: String) -> String? {
    lines().first { $0.contains(text) }
  }
}

extension SessionIndex {
  /// The index of `log`, read whole from memory.
  static func reading(_ log: String) -> SessionIndex {
    var session = SessionIndex(lines: LogLines(data: Data(log.utf8)))
    while session.read(following: false) != .finished {}
    return session
  }
}
