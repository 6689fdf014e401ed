import TerminalKit

/// The rules for a todo's tags: words without spaces, compared without regard to case, each kept
/// as first written.
///
/// A todo keeps its tags sorted, as `list --json` prints them (Swift's `String` order, so
/// `Work` comes before `home`), so that adding and then removing a tag, or undoing either, gives
/// back exactly the list it had: a replay or an `undo` reproduces the state bit for bit.
enum Tags {
  /// Whether `text` can be a tag: non-empty, with no whitespace and no control character.
  static func isValid(_ text: String) -> Bool {
    !text.isEmpty
      && !text.unicodeScalars.contains {
        $0.properties.isWhitespace || TerminalSafeText.isControl($0)
      }
  }

  /// The text two tags are compared by.
  static func key(_ tag: String) -> String { tag.lowercased() }

  /// Whether `tags` holds `tag`, in any case.
  ///
  /// - Complexity: O(tags).
  static func contains(_ tags: [String], _ tag: String) -> Bool {
    let key = key(tag)
    return tags.contains { matches($0, key: key) }
  }

  /// Whether `tag`'s key is `key`; an ASCII tag is compared byte by byte, without building its
  /// key, which keeps `list --tag` fast on 10,000 todos.
  ///
  /// - Complexity: O(length of `tag`).
  static func matches(_ tag: String, key: String) -> Bool {
    var tagBytes = tag.utf8.makeIterator()
    var keyBytes = key.utf8.makeIterator()
    while true {
      switch (tagBytes.next(), keyBytes.next()) {
      case (nil, nil): return true
      case (let byte?, let expected?) where byte < 0x80:
        let lowered = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
        if lowered != expected { return false }
      case (_?, _?):
        return Self.key(tag) == key
      default:
        return false
      }
    }
  }

  /// `tags` with each of `added` that it does not hold yet, in any case, in canonical order.
  ///
  /// - Complexity: O((tags + added) log (tags + added)).
  static func adding(_ added: [String], to tags: [String]) -> [String] {
    var result = tags
    for tag in added where !contains(result, tag) { result.append(tag) }
    return canonical(result)
  }

  /// `tags` without any of `removed`, in any case.
  ///
  /// - Complexity: O(tags × removed).
  static func removing(_ removed: [String], from tags: [String]) -> [String] {
    let keys = Set(removed.map(key))
    return tags.filter { !keys.contains(key($0)) }
  }

  /// `tags` in the order a todo keeps them: sorted.
  static func canonical(_ tags: [String]) -> [String] {
    tags.sorted()
  }
}

extension Tags {
  /// Throws the error naming the first of `tags` that cannot be a tag.
  static func validate(_ tags: [String]) throws(TodoError) {
    if let bad = tags.first(where: { !isValid($0) }) { throw .invalidTag(bad) }
  }
}
