/// A day of the calendar, such as 2026-03-01, without a time or a time zone: what a due date is.
///
/// A due date names a day, not an instant, so the journal and the `--json` output hold it as
/// `"YYYY-MM-DD"`, and a replay under another clock or time zone gives the same list. Only
/// years 1 to 9999 are dates: their text is always four digits.
struct CalendarDate: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The year, 1 to 9999.
  let year: Int
  /// The month, 1 to 12.
  let month: Int
  /// The day of the month, from 1 to the month's length.
  let day: Int

  /// The date, or `nil` if there is no such day (`2026-02-30`).
  init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...Self.length(ofMonth: month, in: year)).contains(day)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// 0001-01-01, the first date there is.
  static let earliest = CalendarDate(checkedYear: 1, month: 1, day: 1)
  /// 9999-12-31, the last date there is.
  static let latest = CalendarDate(checkedYear: 9999, month: 12, day: 31)

  /// A date its caller has checked exists.
  private init(checkedYear year: Int, month: Int, day: Int) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date written `YYYY-MM-DD`, or `nil` for any other text or a day that does not exist.
  init?(_ text: String) {
    let bytes = Array(text.utf8)
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
      let day = Self.number(bytes[8..<10])
    else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// `YYYY-MM-DD`.
  var description: String {
    var bytes: [UInt8] = []
    appendDescription(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``description``'s UTF-8 bytes to `output`, making no string.
  func appendDescription(to output: inout [UInt8]) {
    DecimalText.append(year, width: 4, to: &output)
    output.append(UInt8(ascii: "-"))
    DecimalText.append(month, width: 2, to: &output)
    output.append(UInt8(ascii: "-"))
    DecimalText.append(day, width: 2, to: &output)
  }

  static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  /// The date `days` days later (earlier when negative), or `nil` outside years 1 to 9999.
  func adding(days: Int) -> CalendarDate? {
    let (sum, overflow) = dayNumber.addingReportingOverflow(days)
    guard !overflow else { return nil }
    return Self(dayNumber: sum)
  }

  /// Days since 1970-01-01, in the proleptic Gregorian calendar (Howard Hinnant's
  /// `days_from_civil`); exact for every year this type holds.
  var dayNumber: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date `dayNumber` days after 1970-01-01, or `nil` outside years 1 to 9999.
  init?(dayNumber: Int) {
    // Years 1 to 9999 lie well inside this range, and within it nothing below can overflow.
    guard (-800_000...3_000_000).contains(dayNumber) else { return nil }
    let z = dayNumber + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    self.init(year: year, month: month, day: day)
  }

  private static func length(ofMonth month: Int, in year: Int) -> Int {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
    var value = 0
    for byte in digits {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }

}

/// `"YYYY-MM-DD"`.
extension CalendarDate: Codable {
  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let date = CalendarDate(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "\"\(text)\" is not a date of the form YYYY-MM-DD")
    }
    self = date
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
