import Foundation

/// Which todos a list shows and in what order: the filters and the sort that `list` and the
/// terminal UI's list share, with every date already resolved.
struct TodoSelection: Hashable, Sendable {
  /// Open, done or both.
  var filter = ListFilter.all
  /// Tags a todo must all have, in any case.
  var tags: [String] = []
  /// Only todos due strictly before this day; `list --overdue` sets it to today, and
  /// `--due-before` to its date, the earlier of the two winning.
  var dueBefore: CalendarDate?
  /// Text the title must hold, without regard to case or accents; empty for any title.
  var search = "" {
    didSet { foldedSearch = FoldedText(search) }
  }
  /// The order; `nil` keeps the list's own order, which is the order the todos were added in.
  var sort: SortKey?

  private var foldedSearch = FoldedText("")

  /// A selection of every todo, by id.
  init() {}

  /// A selection with these filters and this sort.
  init(
    filter: ListFilter = .all, tags: [String] = [], dueBefore: CalendarDate? = nil,
    search: String = "", sort: SortKey? = nil
  ) {
    self.filter = filter
    self.tags = tags
    self.dueBefore = dueBefore
    self.search = search
    self.foldedSearch = FoldedText(search)
    self.sort = sort
  }

  /// Whether the selection holds every todo in the list's order.
  var selectsEverything: Bool {
    filter == .all && tags.isEmpty && dueBefore == nil && search.isEmpty && sort == nil
  }

  /// Whether `todo` passes every filter.
  ///
  /// - Complexity: O(length of the title) with a search, O(tags) otherwise.
  func includes(_ todo: Todo) -> Bool {
    guard filter.includes(todo) else { return false }
    if let dueBefore {
      guard let due = todo.due, due < dueBefore else { return false }
    }
    for tag in tags where !Tags.contains(todo.tags, tag) { return false }
    return foldedSearch.isFound(in: todo.title)
  }

  /// The todos that pass, in the selection's order.
  ///
  /// - Complexity: O(n log n) for n todos, plus the filters' cost per todo.
  func apply<C: Collection<Todo>>(to todos: C) -> [Todo] {
    let selected = todos.filter(includes)
    switch sort {
    case nil:
      return selected
    case .id:
      return selected.sorted { $0.id < $1.id }
    case .due:
      return selected.sorted { lhs, rhs in
        switch (lhs.due, rhs.due) {
        case (let left?, let right?) where left != right: left < right
        case (.some, nil): true
        case (nil, .some): false
        default: lhs.id < rhs.id
        }
      }
    case .priority:
      return selected.sorted { lhs, rhs in
        let left = lhs.priority?.rank ?? Priority.allCases.count
        let right = rhs.priority?.rank ?? Priority.allCases.count
        return left != right ? left < right : lhs.id < rhs.id
      }
    case .title:
      let keys = Dictionary(
        selected.map { ($0.id, Self.folded($0.title)) }, uniquingKeysWith: { first, _ in first })
      return selected.sorted { lhs, rhs in
        let left = keys[lhs.id] ?? "", right = keys[rhs.id] ?? ""
        return left != right ? left < right : lhs.id < rhs.id
      }
    }
  }

  /// `text` without case or accents, as search and the title sort compare it: `Café` and
  /// `cafe` fold alike.
  static func folded(_ text: String) -> String {
    text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }
}

/// A search text without case or accents, and the fast way to look for it in a title.
///
/// Folding a title costs a Foundation call; most titles are ASCII, which fold by lowering
/// their letters, so an ASCII title is searched byte by byte and only other titles are folded.
/// That keeps `list --search` on 10,000 todos within the speed bar.
struct FoldedText: Hashable, Sendable {
  /// The folded text.
  let text: String
  private let bytes: [UInt8]
  private let isASCII: Bool

  /// Folds `text`.
  init(_ text: String) {
    self.text = TodoSelection.folded(text)
    bytes = Array(self.text.utf8)
    isASCII = bytes.allSatisfy { $0 < 0x80 }
  }

  /// Whether `title`, folded, holds the text; always for an empty text.
  ///
  /// - Complexity: O(title length × text length) at worst.
  func isFound(in title: String) -> Bool {
    guard !bytes.isEmpty else { return true }
    let ascii: Bool?? = title.utf8.withContiguousStorageIfAvailable { utf8 -> Bool? in
      guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
      // An ASCII title folds to ASCII, which cannot hold a folded text that is not ASCII.
      guard isASCII, utf8.count >= bytes.count else { return false }
      for start in 0...(utf8.count - bytes.count) {
        var index = 0
        while index < bytes.count, Self.lowered(utf8[start + index]) == bytes[index] {
          index += 1
        }
        if index == bytes.count { return true }
      }
      return false
    }
    if let found = ascii ?? nil { return found }
    return TodoSelection.folded(title).contains(text)
  }

  private static func lowered(_ byte: UInt8) -> UInt8 {
    (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
  }
}
