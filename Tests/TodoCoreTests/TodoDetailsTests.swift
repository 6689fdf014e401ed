import Foundation
import TerminalKit
import Testing

@testable import TodoCore

@Suite("Calendar dates and how the command line writes them")
struct CalendarDateTests {
  @Test("Only days that exist are dates; leap years follow the Gregorian rule")
  func existence() {
    #expect(CalendarDate("2026-02-28")?.description == "2026-02-28")
    #expect(CalendarDate("2026-02-29") == nil)
    #expect(CalendarDate("2028-02-29") != nil)
    #expect(CalendarDate("2100-02-29") == nil)
    #expect(CalendarDate("2000-02-29") != nil)
    #expect(CalendarDate("2026-04-31") == nil)
    #expect(CalendarDate("2026-00-10") == nil)
    #expect(CalendarDate("0000-01-01") == nil)
    for text in ["2026-3-1", "2026/03/01", "26-03-01", "２０２６-03-01", "2026-03-01 ", ""] {
      #expect(CalendarDate(text) == nil, "\(text)")
    }
  }

  @Test("Day numbers round-trip across months, years and the calendar's ends")
  func dayNumbers() throws {
    #expect(CalendarDate(year: 1970, month: 1, day: 1)?.dayNumber == 0)
    #expect(try #require(CalendarDate("2026-02-28")).adding(days: 1)?.description == "2026-03-01")
    #expect(try #require(CalendarDate("2026-12-31")).adding(days: 1)?.description == "2027-01-01")
    #expect(try #require(CalendarDate("2028-03-01")).adding(days: -1)?.description == "2028-02-29")
    #expect(CalendarDate.latest.adding(days: 1) == nil)
    #expect(CalendarDate.earliest.adding(days: -1) == nil)
    #expect(CalendarDate.earliest.adding(days: Int.max) == nil)
    var date = CalendarDate.earliest
    for _ in 0..<800 {
      let next = try #require(date.adding(days: 4567))
      #expect(CalendarDate(dayNumber: next.dayNumber) == next)
      #expect(date < next)
      date = next
      if date.year > 9000 { break }
    }
  }

  @Test("today, tomorrow, +<n>d and +<n>w resolve against the day given; others are not dates")
  func arguments() throws {
    let today = try #require(CalendarDate("2026-03-10"))
    func resolved(_ text: String) -> String? {
      DateArgument(text)?.resolved(today: today)?.description
    }
    #expect(resolved("today") == "2026-03-10")
    #expect(resolved("tomorrow") == "2026-03-11")
    #expect(resolved("+3d") == "2026-03-13")
    #expect(resolved("+2w") == "2026-03-24")
    #expect(resolved("2026-01-05") == "2026-01-05")
    #expect(DateArgument("+99999999999999999999d") == nil)
    #expect(DateArgument("+2000000000000000000w") == nil)
    #expect(DateArgument("+5000000d")?.resolved(today: today) == nil)
    for text in ["+d", "-3d", "+3", "3d", "+3D", "Today", "+٣d", "yesterday"] {
      #expect(DateArgument(text) == nil, "\(text)")
    }
  }

  @Test("The clock's day follows the time zone it is given")
  func clockDay() throws {
    let instant = try #require(TodoClock.instant(iso8601: "2026-03-10T03:00:00Z"))
    let utc = try #require(TimeZone(identifier: "UTC"))
    let losAngeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
    #expect(TodoClock.fixed(at: instant, timeZone: utc).today.description == "2026-03-10")
    #expect(TodoClock.fixed(at: instant, timeZone: losAngeles).today.description == "2026-03-09")
    #expect(TodoClock.instant(iso8601: "2026-03-10T03:00:00.250+01:00") != nil)
    #expect(TodoClock.instant(iso8601: "noon") == nil)
    #expect(TodoClock.iso8601(instant) == "2026-03-10T03:00:00Z")
  }
}

@Suite("Tags, due dates and priorities as changes")
struct TodoDetailChangeTests {
  static func state() -> AppState {
    var state = AppState()
    AddTodo(id: 1, title: "a", tags: ["Work"]).updateState(&state)
    AddTodo(id: 2, title: "b").updateState(&state)
    return state
  }

  /// Applies `change`, then its inverse, and checks that the state is back bit for bit.
  func checkInverse(_ change: some TodoChange, in state: AppState) throws {
    var changed = state
    let inverse = try #require(change.inverse(in: state))
    change.updateState(&changed)
    #expect(changed != state, "\(change.summary) changes the state")
    inverse.apply(to: &changed)
    #expect(changed == state, "\(change.summary) is undone exactly")
  }

  @Test("Each change is undone exactly by its inverse")
  func inverses() throws {
    let state = Self.state()
    try checkInverse(TagTodo(id: 1, tags: ["home", "WORK", "a"]), in: state)
    try checkInverse(UntagTodo(id: 1, tags: ["work"]), in: state)
    try checkInverse(SetDue(id: 2, due: CalendarDate("2026-03-01")), in: state)
    try checkInverse(SetPriority(id: 2, priority: .low), in: state)
  }

  @Test("Tags compare without regard to case and keep their first spelling, in one order")
  func tagRules() {
    var state = Self.state()
    #expect(!TagTodo(id: 1, tags: ["WORK"]).changes(state))
    #expect(TagTodo(id: 1, tags: ["WORK", "b"]).changes(state))
    TagTodo(id: 1, tags: ["WORK", "b", "B", "Äpfel"]).updateState(&state)
    #expect(state.todos[id: 1]?.tags == ["Work", "b", "Äpfel"])
    #expect(!UntagTodo(id: 1, tags: ["zzz"]).changes(state))
    UntagTodo(id: 1, tags: ["äpfel", "work"]).updateState(&state)
    #expect(state.todos[id: 1]?.tags == ["b"])
    #expect(Tags.isValid("c++") && Tags.isValid("日本"))
    for bad in ["", "a b", "a\tb", "a\u{A0}b", "a\u{1B}b"] { #expect(!Tags.isValid(bad)) }
    #expect(throws: TodoError.invalidTag("a b")) {
      try TagTodo(id: 1, tags: ["a b"]).validate(in: state)
    }
    #expect(throws: TodoError.noTags) { try UntagTodo(id: 1, tags: []).validate(in: state) }
    #expect(throws: TodoError.noSuchTodo(9)) { try SetDue(id: 9, due: nil).validate(in: state) }
  }

  @Test("A change that leaves the todo as it is does not count as a change")
  func noOps() {
    let state = Self.state()
    #expect(!SetDue(id: 2, due: nil).changes(state))
    #expect(!SetPriority(id: 2, priority: nil).changes(state))
    #expect(SetPriority(id: 2, priority: .high).changes(state))
    #expect(!SetPriority(id: 9, priority: .high).changes(state))
  }

  @Test("Old payloads decode with none of the new fields, and todos without them encode as before")
  func compatibility() throws {
    let old = try JSONDecoder().decode(
      AppState.self, from: Data(#"{"todos":[{"id":1,"title":"a","done":true}],"nextID":2}"#.utf8))
    #expect(old.todos[id: 1] == Todo(id: 1, title: "a", done: true))
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    #expect(
      String(decoding: try encoder.encode(Todo(id: 1, title: "a")), as: UTF8.self)
        == #"{"done":false,"id":1,"title":"a"}"#)
    #expect(
      String(decoding: try encoder.encode(AddTodo(id: 1, title: "a")), as: UTF8.self)
        == #"{"id":1,"title":"a"}"#)
    let full = Todo(
      id: 1, title: "a", tags: ["x"], due: CalendarDate("2026-03-01"), priority: .medium)
    #expect(try JSONDecoder().decode(Todo.self, from: encoder.encode(full)) == full)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(
        Todo.self, from: Data(#"{"id":1,"title":"a","done":false,"due":"2026-02-30"}"#.utf8))
    }
  }
}

@Suite("Selecting and sorting todos")
struct TodoSelectionTests {
  static let todos = [
    Todo(id: 1, title: "Café", tags: ["food"], due: CalendarDate("2026-03-05"), priority: .low),
    Todo(id: 2, title: "cafe run", done: true, tags: ["FOOD", "x"], priority: .high),
    Todo(id: 3, title: "Apple", due: CalendarDate("2026-03-01")),
    Todo(id: 4, title: "bake", due: CalendarDate("2026-03-05"), priority: .high),
  ]

  func ids(_ selection: TodoSelection) -> [Int] { selection.apply(to: Self.todos).map(\.id) }

  @Test("Filters combine; tags match in any case; search ignores case and accents")
  func filters() {
    #expect(ids(TodoSelection(tags: ["Food"])) == [1, 2])
    #expect(ids(TodoSelection(tags: ["food", "X"])) == [2])
    #expect(ids(TodoSelection(filter: .open, tags: ["food"])) == [1])
    #expect(ids(TodoSelection(dueBefore: CalendarDate("2026-03-05"))) == [3])
    #expect(ids(TodoSelection(search: "CAFÉ")) == [1, 2])
    #expect(ids(TodoSelection(search: "e r")) == [2])
    #expect(ids(TodoSelection(search: "APP")) == [3], "an ASCII title, searched byte by byte")
    #expect(ids(TodoSelection(search: "é")) == [1, 2, 3, 4], "accents fold away on both sides")
    #expect(FoldedText("ΣΟΦΊΑ").isFound(in: "σοφια"))
    #expect(!FoldedText("шум").isFound(in: "shum"))
    #expect(Tags.matches("WORK", key: "work") && !Tags.matches("WORKS", key: "work"))
    #expect(Tags.matches("ÄPFEL", key: "äpfel") && !Tags.matches("apfel", key: "äpfel"))
    #expect(TodoSelection().selectsEverything)
  }

  @Test("Sorts: due with undated last, priority with none last, title folded; ties by id")
  func sorts() {
    #expect(ids(TodoSelection(sort: .due)) == [3, 1, 4, 2])
    #expect(ids(TodoSelection(sort: .priority)) == [2, 4, 1, 3])
    #expect(ids(TodoSelection(sort: .title)) == [3, 4, 1, 2])
    #expect(ids(TodoSelection(sort: .id)) == [1, 2, 3, 4])
  }
}
