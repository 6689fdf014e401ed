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
    didSet { foldedSearch = Self.folded(search) }
  }
  /// The order; `nil` keeps the list's own order, which is the order the todos were added in.
  var sort: SortKey?

  private var foldedSearch = ""

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
    self.foldedSearch = Self.folded(search)
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
    if !foldedSearch.isEmpty {
      return Self.folded(todo.title).contains(foldedSearch)
    }
    return true
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
