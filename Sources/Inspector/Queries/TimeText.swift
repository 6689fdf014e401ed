import Foundation

/// Times and durations as every view of the inspector shows them: to the nearest millisecond.
///
/// The recorder writes times to the millisecond, but a `Double` read from `100.006` may lie a
/// hair below it, and a hand-written log may carry more digits: every view rounds through
/// ``milliseconds(_:)``, so that the timeline, the summary, the HTML report and the terminal
/// interface show the same figure. A duration is the difference of the rounded times, so it
/// agrees with the times shown at its ends.
package enum TimeText {
  /// `seconds` as a whole number of milliseconds, rounded to the nearest (halves away from
  /// zero); `nil` when it is not finite or too far out to be a date.
  package static func milliseconds(_ seconds: Double) -> Int? {
    guard seconds.isFinite, abs(seconds) < 1e15 else { return nil }
    return Int((seconds * 1000).rounded())
  }

  /// A time in seconds since 1970 as ISO 8601 with milliseconds, in UTC:
  /// `2026-11-29T05:43:54.749Z`; `-` for a time too far out to be a date.
  package static func date(_ seconds: Double) -> String {
    guard let milliseconds = milliseconds(seconds) else { return "-" }
    let (whole, fraction) = split(milliseconds)
    let text = Date(timeIntervalSince1970: Double(whole)).formatted(Date.ISO8601FormatStyle())
    guard text.hasSuffix("Z") else { return text }
    return text.dropLast() + "." + three(fraction) + "Z"
  }

  /// The time of day, `HH:MM:SS.mmm`, in UTC; `-` for a time too far out to be a date.
  package static func clock(_ seconds: Double) -> String {
    guard let milliseconds = milliseconds(seconds) else { return "-" }
    let day = 86_400_000
    let ofDay = ((milliseconds % day) + day) % day
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return two(ofDay / 3_600_000) + ":" + two(ofDay / 60_000 % 60) + ":"
      + two(ofDay / 1000 % 60) + "." + three(ofDay % 1000)
  }

  /// Seconds as a JSON number with three decimals, `1.234`; `0` for a value out of range.
  package static func seconds(_ seconds: Double) -> String {
    milliseconds(seconds).map(text(milliseconds:)) ?? "0"
  }

  /// The seconds from `start` to `end`, both rounded to the millisecond first; 0 when either
  /// is out of range.
  package static func duration(from start: Double, to end: Double) -> Double {
    guard let start = milliseconds(start), let end = milliseconds(end) else { return 0 }
    return Double(end - start) / 1000
  }

  /// A number of milliseconds as seconds with three decimals.
  private static func text(milliseconds: Int) -> String {
    let (whole, fraction) = split(milliseconds.magnitude)
    return (milliseconds < 0 ? "-" : "") + String(whole) + "." + three(fraction)
  }

  /// Whole seconds (rounded down) and the milliseconds after them.
  private static func split<Value: BinaryInteger>(_ milliseconds: Value) -> (Value, Int) {
    let fraction = ((milliseconds % 1000) + 1000) % 1000
    return ((milliseconds - fraction) / 1000, Int(fraction))
  }

  private static func three(_ value: Int) -> String {
    value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
  }
}
