/// A JSON value as a log holds it, for tools that read logs without the app's types and for
/// schema migrations that rewrite old JSON into the new shape.
///
/// Numbers keep their literal text, so a value read and written again is the same bytes, and
/// objects keep their members in order.
public enum JSONValue: Sendable, Equatable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, as its literal text (`1`, `-2.5e3`).
  case number(String)
  /// A string, unescaped.
  case string(String)
  /// An array of values.
  case array([JSONValue])
  /// An object: its members in order.
  case object(JSONObject)

  /// The member `key` of an object, or `nil` for a missing key or a value that is no object.
  ///
  /// Setting a member of an object adds, replaces or (with `nil`) removes it; setting a member
  /// of a value that is no object replaces the value with an object holding only that member.
  ///
  /// ```swift
  /// payload["title"] = payload["text"]   // a renamed property, in a schema migration
  /// payload["text"] = nil
  /// ```
  ///
  /// - Complexity: O(1) to read, add or replace a member; O(members) to remove one.
  public subscript(key: String) -> JSONValue? {
    get {
      guard case .object(let object) = self else { return nil }
      return object[key]
    }
    set {
      guard case .object(var object) = self else {
        if let newValue { self = .object(JSONObject([(key, newValue)])) }
        return
      }
      self = .null
      object[key] = newValue
      self = .object(object)
    }
  }

  /// The value at `path` (JSON Pointer tokens), or `nil` when there is none.
  ///
  /// - Complexity: O(length of `path`).
  public func value(at path: some Collection<String>) -> JSONValue? {
    var current = self
    for token in path {
      switch current {
      case .object(let object):
        guard let member = object[token] else { return nil }
        current = member
      case .array(let elements):
        guard let index = JSONPointer.index(token), index < elements.count else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }

  /// The string, if the value is one.
  public var stringValue: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The number as an `Int`, if the value is an integer that fits.
  public var intValue: Int? {
    if case .number(let text) = self { return Int(text) }
    return nil
  }

  /// The number as a `Double`, if the value is a number.
  public var doubleValue: Double? {
    if case .number(let text) = self { return Double(text) }
    return nil
  }
}

/// The members of a JSON object, in order, with a key index for lookups in O(1).
public struct JSONObject: Sendable, Equatable {
  /// One member.
  public struct Member: Sendable, Equatable {
    /// The key.
    public var key: String
    /// The value.
    public var value: JSONValue
  }

  /// The members, in the order they were read or added; each key at most once.
  public private(set) var members: [Member] = []
  /// The position of each key, kept once the object has more members than a search is worth.
  private var positions: [String: Int] = [:]
  /// How many members an object searches by key before it indexes them.
  private static let searchLimit = 8

  /// Creates an empty object.
  public init() {}

  /// Creates an object of `pairs`; a repeated key keeps its first place and its last value.
  ///
  /// - Complexity: O(pairs).
  public init(_ pairs: [(String, JSONValue)]) {
    members.reserveCapacity(pairs.count)
    for (key, value) in pairs { self[key] = value }
  }

  /// The number of members.
  public var count: Int { members.count }

  /// Makes room for `capacity` members.
  package mutating func reserveCapacity(_ capacity: Int) {
    members.reserveCapacity(capacity)
  }

  /// Adds a member whose key the object does not have yet, without looking for it.
  ///
  /// - Complexity: O(1), amortized.
  mutating func appendNew(_ key: String, _ value: JSONValue) {
    members.append(Member(key: key, value: value))
    if !positions.isEmpty {
      positions[key] = members.count - 1
    } else if members.count > Self.searchLimit {
      for (index, member) in members.enumerated() { positions[member.key] = index }
    }
  }

  private func position(of key: String) -> Int? {
    guard positions.isEmpty else { return positions[key] }
    return members.firstIndex { $0.key == key }
  }

  /// The value of `key`; setting `nil` removes the member.
  ///
  /// - Complexity: O(1) to read or change a member; O(members) to remove one.
  public subscript(key: String) -> JSONValue? {
    get { position(of: key).map { members[$0].value } }
    set {
      if let position = position(of: key) {
        if let newValue {
          members[position].value = newValue
        } else {
          members.remove(at: position)
          guard !positions.isEmpty else { return }
          positions[key] = nil
          for index in position..<members.count { positions[members[index].key] = index }
        }
      } else if let newValue {
        appendNew(key, newValue)
      }
    }
  }

  /// Changes the value of `key` in place, which must exist, without copying it.
  ///
  /// - Returns: Whether the key exists.
  public mutating func modify<Failure: Error>(
    _ key: String, _ body: (inout JSONValue) throws(Failure) -> Void
  ) throws(Failure) -> Bool {
    guard let position = position(of: key) else { return false }
    try body(&members[position].value)
    return true
  }

  /// Whether the object's keys are `keys`, in that order.
  ///
  /// - Complexity: O(members).
  func hasKeys(_ keys: some Collection<String>) -> Bool {
    members.count == keys.count && zip(members, keys).allSatisfy { $0.key == $1 }
  }

  /// Changes the value of the member at `position` in place, without copying it.
  mutating func modifyValue(at position: Int, _ body: (inout JSONValue) -> Void) {
    body(&members[position].value)
  }

  /// Whether both objects have the same members in the same order.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.members == rhs.members
  }
}

/// JSON Pointer paths (RFC 6901): `/todos/0/title`, with `~` written `~0` and `/` written `~1`.
package enum JSONPointer {
  /// The pointer text of `tokens`; the root is the empty string.
  ///
  /// - Complexity: O(length of the tokens).
  package static func text(_ tokens: some Sequence<String>) -> String {
    var text = ""
    for token in tokens {
      text += "/"
      // `~` is 0x7E and `/` 0x2F: most tokens have neither and go as they are.
      guard token.utf8.contains(where: { $0 == 0x7E || $0 == 0x2F }) else {
        text += token
        continue
      }
      text += token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(
        of: "/", with: "~1")
    }
    return text
  }

  /// The tokens of a pointer, or `nil` when `text` is neither empty nor starts with `/`.
  ///
  /// - Complexity: O(length of `text`).
  package static func tokens(_ text: String) -> [String]? {
    guard !text.isEmpty else { return [] }
    guard text.hasPrefix("/") else { return nil }
    return text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
      // Most tokens have no `~` (0x7E) and go as they are.
      guard $0.utf8.contains(0x7E) else { return String($0) }
      return $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }
  }

  /// The array index a token names: decimal digits without a leading zero.
  package static func index(_ token: String) -> Int? {
    guard let first = token.utf8.first, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      first != 0x30 || token.utf8.count == 1
    else { return nil }
    return Int(token)
  }
}
