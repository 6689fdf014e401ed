import ActionLog

/// A JSON state laid out as a folding tree: one row per member or element shown, indented by
/// depth, with containers expanded only where asked.
package enum StateTree {
  /// One row of the tree.
  package struct Row: Equatable, Sendable {
    /// The path of the value the row shows: an element of an identified array by its
    /// identifier, so that a row keeps its place (open, or asked for its history) as the
    /// element moves.
    package var path: [PathStep]
    /// How deep it is: 0 for the root's members.
    package var depth: Int
    /// Whether the value is an object or an array.
    package var isContainer: Bool
    /// Whether it is a container shown expanded.
    package var isExpanded: Bool
    /// What the row says: the key, `[index]` or `[id=…]`, then the value or a preview of it.
    package var text: String
  }

  /// The most members or elements listed under one container; a last row says how many more
  /// there are, so a huge array cannot make every frame slow.
  package static let maximumChildren = 1000

  /// The longest array whose elements the tree labels by identifier; a longer one is labelled
  /// by position, so that a frame stays O(rows shown) in it.
  static let identifiedArrayLimit = 10_000

  /// The rows of `state` with the containers at `expanded` paths opened; the root's members
  /// are always shown.
  ///
  /// - Complexity: O(rows shown × `previewLength`).
  package static func rows(
    of state: JSONValue, expanded: Set<[PathStep]>, previewLength: Int = 200
  ) -> [Row] {
    var rows: [Row] = []
    func visit(_ value: JSONValue, path: [PathStep], depth: Int) {
      for (token, label, child) in children(of: value).prefix(maximumChildren) {
        let childPath = path + [token]
        let container = isContainer(child)
        let open = container && expanded.contains(childPath)
        let marker = container ? (open ? "▾ " : "▸ ") : "  "
        let shown = open ? summary(of: child) : preview(child, length: previewLength)
        rows.append(
          Row(
            path: childPath, depth: depth, isContainer: container, isExpanded: open,
            text: String(repeating: "  ", count: depth) + marker + label + ": " + shown))
        if open { visit(child, path: childPath, depth: depth + 1) }
      }
      let count = childCount(of: value)
      if count > maximumChildren {
        rows.append(
          Row(
            path: path, depth: depth, isContainer: false, isExpanded: false,
            text: String(repeating: "  ", count: depth) + "  … \(count - maximumChildren) more"))
      }
    }
    if isContainer(state) {
      visit(state, path: [], depth: 0)
    } else {
      rows.append(
        Row(
          path: [], depth: 0, isContainer: false, isExpanded: false,
          text: preview(state, length: previewLength)))
    }
    return rows
  }

  /// The paths of a state's containers down to `depth` levels: what to expand to show it open.
  ///
  /// - Complexity: O(containers within `depth` levels).
  package static func containers(of state: JSONValue, depth: Int) -> Set<[PathStep]> {
    var paths: Set<[PathStep]> = []
    func visit(_ value: JSONValue, path: [PathStep], level: Int) {
      guard level < depth else { return }
      for (token, _, child) in children(of: value).prefix(maximumChildren)
      where isContainer(child) {
        paths.insert(path + [token])
        visit(child, path: path + [token], level: level + 1)
      }
    }
    visit(state, path: [], level: 0)
    return paths
  }

  /// `{3 keys}` or `[2 items]`.
  private static func summary(of value: JSONValue) -> String {
    switch value {
    case .object(let object): object.count == 1 ? "{1 key}" : "{\(object.count) keys}"
    case .array(let array): array.count == 1 ? "[1 item]" : "[\(array.count) items]"
    default: ""
    }
  }

  private static func isContainer(_ value: JSONValue) -> Bool {
    switch value {
    case .object, .array: true
    default: false
    }
  }

  private static func childCount(of value: JSONValue) -> Int {
    switch value {
    case .object(let object): object.count
    case .array(let array): array.count
    default: 0
    }
  }

  /// The members or elements of a container: each one's step, label and value.
  ///
  /// The elements of an array that names each by a distinct identifier are labelled and stepped
  /// to by it.
  private static func children(of value: JSONValue) -> [(PathStep, String, JSONValue)] {
    switch value {
    case .object(let object):
      return object.members.map { (.token($0.key), quotedKey($0.key), $0.value) }
    case .array(let array):
      // Told for arrays of a size a frame can afford to look through whole.
      if array.count <= identifiedArrayLimit, let identified = IdentifiedElements(array) {
        return zip(identified.ids, array).map { id, element in
          (.id(id), TextOutput.safe(JSONPath.text([.id(id)])), element)
        }
      }
      return array.enumerated().map { (.token(String($0.offset)), "[\($0.offset)]", $0.element) }
    default:
      return []
    }
  }

  /// A member's key as the tree shows it: plain when it is a simple word, else quoted JSON.
  private static func quotedKey(_ key: String) -> String {
    let simple =
      !key.isEmpty
      && key.unicodeScalars.allSatisfy { scalar in
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
      }
    if simple { return key }
    var quoted = ""
    JSONValue.appendQuoted(key, to: &quoted, forHTML: false)
    return quoted
  }

  /// The value as compact JSON, cut after about `length` characters with `…`.
  ///
  /// Only what is shown is written, so a preview of a huge container costs O(`length`).
  ///
  /// - Complexity: O(`length`) plus the depth of the value.
  package static func preview(_ value: JSONValue, length: Int) -> String {
    var output = ""
    var budget = max(length, 1)
    var cut = false
    /// Appends `text` while there is room; once there is none, marks the preview cut.
    func emit(_ text: String) -> Bool {
      guard budget > 0 else {
        cut = true
        return false
      }
      output += text
      budget -= text.count
      return true
    }
    func write(_ value: JSONValue) -> Bool {
      switch value {
      case .object(let object):
        guard emit("{") else { return false }
        for (index, member) in object.members.enumerated() {
          var key = index == 0 ? "" : ","
          JSONValue.appendQuoted(member.key, to: &key, forHTML: false)
          guard emit(key + ":"), write(member.value) else { return false }
        }
        return emit("}")
      case .array(let array):
        guard emit("[") else { return false }
        for (index, element) in array.enumerated() {
          guard index == 0 || emit(","), write(element) else { return false }
        }
        return emit("]")
      default:
        return emit(value.text())
      }
    }
    _ = write(value)
    return cut ? output + "…" : output
  }
}
