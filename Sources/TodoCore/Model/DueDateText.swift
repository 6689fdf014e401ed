/// How a user writes a due date: `YYYY-MM-DD`, `today`, `tomorrow`, `+<n>d` or `+<n>w`.
///
/// A relative date is resolved against "today" when the command runs, so the journal and the
/// action log only ever hold calendar dates.
enum DueDateText {
  /// The date `text` names, with `today` as the day it is now, or `nil` if `text` names none
  /// (including a day that does not exist, such as `2026-02-30`).
  static func date(_ text: String, today: CalendarDate) -> CalendarDate? {
    switch text.lowercased() {
    case "today": return today
    case "tomorrow": return today.adding(days: 1)
    default: break
    }
    if text.hasPrefix("+"), let unit = text.last, unit == "d" || unit == "w" {
      let digits = text.dropFirst().dropLast()
      guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
        let count = Int(digits)
      else { return nil }
      let (days, overflow) = count.multipliedReportingOverflow(by: unit == "w" ? 7 : 1)
      return overflow ? nil : today.adding(days: days)
    }
    return CalendarDate(text)
  }

  /// What the forms are, for messages.
  static let forms = "YYYY-MM-DD, today, tomorrow, +<n>d or +<n>w"
}
