import ActionLog
import Foundation

/// What the `/` prompt of the terminal interface keeps of the timeline.
///
/// The text is split at spaces into terms, and an entry is kept when it matches every term.
/// `type:WORD`, `scope:WORD` and `cause:WORD` match that field only; any other term matches the
/// type, scope, cause, payload or unrecorded reason. Every match ignores case and may be part
/// of the field (`type:add` keeps `AddItem`). `scope:-` keeps the root's entries and `cause:-`
/// the entries without a cause.
package struct TimelineFilter: Equatable, Sendable {
  /// One term of the filter.
  private enum Term: Equatable, Sendable {
    case type(String)
    case scope(String)
    case cause(String)
    case anywhere(String)
  }

  /// The text typed.
  package let text: String
  private let terms: [Term]

  /// Parses `text`.
  ///
  /// - Complexity: O(length of `text`).
  package init(_ text: String) {
    self.text = text
    terms = text.split(whereSeparator: \.isWhitespace).map { word in
      for (prefix, make) in [
        ("type:", Term.type), ("scope:", Term.scope), ("cause:", Term.cause),
      ] where word.lowercased().hasPrefix(prefix) {
        return make(String(word.dropFirst(prefix.count)))
      }
      return .anywhere(String(word))
    }
  }

  /// Whether the filter keeps every entry.
  package var isEmpty: Bool { terms.isEmpty }

  /// Whether `entry` matches every term.
  ///
  /// - Complexity: O(size of the entry) per term.
  package func matches(_ entry: InspectedEntry) -> Bool {
    terms.allSatisfy { term in
      switch term {
      case .type(let word): Self.field(entry.type, contains: word)
      case .scope(let word): Self.field(entry.scope, contains: word)
      case .cause(let word): Self.field(entry.cause ?? "", contains: word)
      case .anywhere(let word):
        [entry.type, entry.scope, entry.cause ?? "", entry.unrecordedReason ?? ""]
          .contains { Self.field($0, contains: word) }
          || entry.payload.map { Self.field($0.text(), contains: word) } ?? false
      }
    }
  }

  /// Whether `field` holds `word`, ignoring case; `-` stands for an empty field.
  private static func field(_ field: String, contains word: String) -> Bool {
    if word == "-" { return field.isEmpty }
    return word.isEmpty || field.range(of: word, options: [.caseInsensitive]) != nil
  }
}
