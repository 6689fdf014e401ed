/// Renders a value on one line and stops as soon as the length limit is reached.
///
/// `String(describing:)` of a state with a hundred thousand elements would build the whole text
/// only to cut it; this renderer walks the mirror and gives up once it has enough.
struct ValueRenderer {
  let limit: Int
  private var text = ""
  private var length = 0
  private var isFull: Bool { length > limit }

  /// Sets and dictionaries larger than this are summarised instead of sorted.
  private static let largestSortedCollection = 256

  init(limit: Int) {
    self.limit = limit
  }

  /// The rendered text, ending in `…` if it was cut.
  var result: String {
    guard isFull else { return text }
    return String(text.prefix(limit - 1)) + "…"
  }

  mutating func render(_ value: Any) {
    guard !isFull else { return }
    switch DiffShape(of: value) {
    case .leaf:
      write(String(reflecting: value))
    case .optional(let wrapped):
      if let wrapped { render(wrapped) } else { write("nil") }
    case .fields(let fields):
      let isTuple = Mirror(reflecting: value).displayStyle == .tuple
      write(isTuple ? "(" : "\(type(of: value))(")
      renderFields(fields)
      write(")")
    case .enumCase(let name, let payload):
      write("." + name)
      guard let payload else { return }
      write("(")
      if case .fields(let fields) = DiffShape(of: payload),
        Mirror(reflecting: payload).displayStyle == .tuple
      {
        renderFields(fields)
      } else {
        render(payload)
      }
      write(")")
    case .sequence(let elements):
      renderList(elements, open: "[", close: "]")
    case .set(let elements):
      guard elements.count <= Self.largestSortedCollection else {
        write("Set(\(elements.count) elements)")
        return
      }
      let sorted = elements.map { (key: String(reflecting: $0), value: $0) }
        .sorted { $0.key < $1.key }.map(\.value)
      renderList(sorted, open: "Set([", close: "])")
    case .dictionary(let pairs):
      guard pairs.count <= Self.largestSortedCollection else {
        write("[\(pairs.count) entries]")
        return
      }
      guard !pairs.isEmpty else { return write("[:]") }
      write("[")
      let sorted = pairs.map { (description: String(reflecting: $0.key), value: $0.value) }
        .sorted { $0.description < $1.description }
      for (index, pair) in sorted.enumerated() {
        if isFull { return }
        if index > 0 { write(", ") }
        write(pair.description + ": ")
        render(pair.value)
      }
      write("]")
    }
  }

  private mutating func renderFields(_ fields: [(label: String, value: Any)]) {
    for (index, field) in fields.enumerated() {
      if isFull { return }
      if index > 0 { write(", ") }
      if !field.label.hasPrefix(".") { write(field.label + ": ") }
      render(field.value)
    }
  }

  private mutating func renderList(_ elements: [Any], open: String, close: String) {
    write(open)
    for (index, element) in elements.enumerated() {
      if isFull { return }
      if index > 0 { write(", ") }
      render(element)
    }
    write(close)
  }

  private mutating func write(_ piece: String) {
    guard !isFull else { return }
    text += piece
    length += piece.count
  }
}
