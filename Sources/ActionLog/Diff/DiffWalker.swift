/// Walks two values side by side and collects one line per difference, within the options' caps.
struct DiffWalker {
  let options: StateDiff.Options
  private(set) var lines: [String] = []
  private var isTruncated = false

  init(options: StateDiff.Options) {
    self.options = options
  }

  /// The lines found, with a closing note if the line cap cut the walk short.
  func finish() -> [String] {
    guard isTruncated else { return lines }
    return lines + ["… more differences not shown (limit: \(options.maximumLines) lines)"]
  }

  mutating func compare(_ old: Any, _ new: Any, path: String, depth: Int) {
    guard !isTruncated else { return }
    let equality = diffEquality(old, new)
    if equality == true { return }
    let linesBefore = lines.count
    if depth >= options.maximumDepth {
      if equality == false || String(reflecting: old) != String(reflecting: new) {
        emitChange(path, old, new)
      }
      return
    }
    compareShapes(old, new, path: path, depth: depth)
    // `==` saw a difference that the mirror does not show (a custom `==`, NaN): still report it.
    if equality == false && lines.count == linesBefore && !isTruncated {
      emitChange(path, old, new)
    }
  }

  private mutating func compareShapes(_ old: Any, _ new: Any, path: String, depth: Int) {
    switch (DiffShape(of: old), DiffShape(of: new)) {
    case (.leaf, .leaf):
      if String(reflecting: old) != String(reflecting: new) { emitChange(path, old, new) }
    case (.optional(let oldWrapped), .optional(let newWrapped)):
      compareOptionals(oldWrapped, newWrapped, path: path, depth: depth)
    case (.fields(let oldFields), .fields(let newFields))
    where oldFields.map(\.label) == newFields.map(\.label):
      for (oldField, newField) in zip(oldFields, newFields) {
        compare(
          oldField.value, newField.value, path: Self.join(path, oldField.label), depth: depth + 1)
      }
    case (.enumCase(let oldName, let oldPayload), .enumCase(let newName, let newPayload))
    where oldName == newName:
      if let oldPayload, let newPayload {
        compare(oldPayload, newPayload, path: Self.join(path, oldName), depth: depth + 1)
      }
    case (.sequence(let oldElements), .sequence(let newElements)):
      compareSequences(oldElements, newElements, path: path, depth: depth)
    case (.set(let oldElements), .set(let newElements)):
      compareSets(oldElements, newElements, path: path)
    case (.dictionary(let oldPairs), .dictionary(let newPairs)):
      compareDictionaries(oldPairs, newPairs, path: path, depth: depth)
    default:
      emitChange(path, old, new)
    }
  }

  private mutating func compareOptionals(
    _ old: Any?, _ new: Any?, path: String, depth: Int
  ) {
    switch (old, new) {
    case (nil, nil): return
    case (nil, let new?): emit(path, "nil → \(render(new))")
    case (let old?, nil): emit(path, "\(render(old)) → nil")
    case (let old?, let new?): compare(old, new, path: path, depth: depth)
    }
  }

  private mutating func compareSequences(
    _ old: [Any], _ new: [Any], path: String, depth: Int
  ) {
    for index in 0..<min(old.count, new.count) {
      compare(old[index], new[index], path: path + "[\(index)]", depth: depth + 1)
      if isTruncated { return }
    }
    if new.count > old.count {
      for index in old.count..<new.count {
        emit(path + "[\(index)]", "added \(render(new[index]))")
        if isTruncated { return }
      }
    } else {
      for index in new.count..<old.count {
        emit(path + "[\(index)]", "removed \(render(old[index]))")
        if isTruncated { return }
      }
    }
  }

  private mutating func compareSets(_ old: [Any], _ new: [Any], path: String) {
    let oldKeys = Set(old.map { String(reflecting: $0) })
    let newKeys = Set(new.map { String(reflecting: $0) })
    let removed = old.filter { !newKeys.contains(String(reflecting: $0)) }
    let added = new.filter { !oldKeys.contains(String(reflecting: $0)) }
    for element in Self.sortedByDescription(removed) {
      emit(path, "removed \(render(element))")
      if isTruncated { return }
    }
    for element in Self.sortedByDescription(added) {
      emit(path, "added \(render(element))")
      if isTruncated { return }
    }
  }

  private mutating func compareDictionaries(
    _ old: [(key: Any, value: Any)], _ new: [(key: Any, value: Any)], path: String, depth: Int
  ) {
    var oldByKey: [String: Any] = [:]
    for pair in old { oldByKey[String(reflecting: pair.key)] = pair.value }
    var newByKey: [String: Any] = [:]
    for pair in new { newByKey[String(reflecting: pair.key)] = pair.value }
    for key in Set(oldByKey.keys).union(newByKey.keys).sorted() {
      let keyPath = path + "[\(key)]"
      switch (oldByKey[key], newByKey[key]) {
      case (let oldValue?, let newValue?):
        compare(oldValue, newValue, path: keyPath, depth: depth + 1)
      case (nil, let newValue?):
        emit(keyPath, "added \(render(newValue))")
      case (let oldValue?, nil):
        emit(keyPath, "removed \(render(oldValue))")
      case (nil, nil):
        break
      }
      if isTruncated { return }
    }
  }

  // MARK: - Output

  private mutating func emitChange(_ path: String, _ old: Any, _ new: Any) {
    emit(path, "\(render(old)) → \(render(new))")
  }

  private mutating func emit(_ path: String, _ text: String) {
    guard lines.count < options.maximumLines else {
      isTruncated = true
      return
    }
    lines.append("\(Self.display(path)): \(text)")
  }

  private func render(_ value: Any) -> String {
    StateDiff.render(value, maximumLength: options.maximumValueLength)
  }

  private static func join(_ path: String, _ label: String) -> String {
    if path.isEmpty || label.hasPrefix(".") { return path + label }
    return path + "." + label
  }

  private static func display(_ path: String) -> String {
    guard let first = path.first else { return "self" }
    return first == "." || first == "[" ? "self" + path : path
  }

  private static func sortedByDescription(_ values: [Any]) -> [Any] {
    values.map { (key: String(reflecting: $0), value: $0) }.sorted { $0.key < $1.key }.map(\.value)
  }
}
