import Foundation
import TerminalKit

/// What time it is for the todo app, and which day that is where the user is.
///
/// Commands ask it for "today" (to resolve `today`, `tomorrow`, `+3d`, and to tell what is
/// overdue) and for the time they stamp on journal entries. The real clock reads the system's
/// time and the local time zone, which honours `TZ`; tests and the end-to-end suite set the time
/// with the environment variable `TODO_CLI_NOW`.
struct TodoClock: Sendable {
  /// The current instant.
  let now: @Sendable () -> Date
  /// The time zone that decides which calendar day an instant falls on.
  let timeZone: TimeZone

  /// A clock that reads `now` and counts days in `timeZone`.
  init(timeZone: TimeZone = .current, now: @escaping @Sendable () -> Date) {
    self.timeZone = timeZone
    self.now = now
  }

  /// The system's clock in the local time zone.
  static var system: TodoClock { TodoClock { Date() } }

  /// A clock stopped at `instant`, in `timeZone`.
  static func fixed(at instant: Date, timeZone: TimeZone = .current) -> TodoClock {
    TodoClock(timeZone: timeZone) { instant }
  }

  /// The calendar day it is now in ``timeZone``.
  var today: CalendarDate { day(of: now()) }

  /// The calendar day `instant` falls on in ``timeZone``.
  func day(of instant: Date) -> CalendarDate {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month, .day], from: instant)
    let year = parts.year ?? 1970
    return CalendarDate(year: year, month: parts.month ?? 1, day: parts.day ?? 1)
      ?? (year < 1 ? .earliest : .latest)
  }

  /// The clock the process environment asks for: stopped at `TODO_CLI_NOW` when it is set,
  /// else the system's.
  ///
  /// - Throws: ``UsageError`` when `TODO_CLI_NOW` is not an ISO 8601 date and time.
  static func from(variables: [String: String]) throws(UsageError) -> TodoClock {
    guard let text = variables["TODO_CLI_NOW"], !text.isEmpty else { return .system }
    guard let instant = instant(iso8601: text) else {
      throw UsageError(
        "TODO_CLI_NOW is '\(TerminalSafeText.escaped(text))', which is not an ISO 8601 date and "
          + "time such as 2026-03-01T09:30:00Z")
    }
    return .fixed(at: instant)
  }

  /// The instant written in ISO 8601: a date and time with a zone (`Z` or `+01:00`), with or
  /// without fractional seconds, or a date alone, which means its midnight in the local time
  /// zone.
  static func instant(iso8601 text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    guard let day = CalendarDate(text) else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = .current
    return calendar.date(
      from: DateComponents(year: day.year, month: day.month, day: day.day))
  }

  /// The text ISO 8601 gives `instant`, in UTC: `2026-03-01T09:30:00Z`.
  static func iso8601(_ instant: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.string(from: instant)
  }
}
