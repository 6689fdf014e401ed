/// Whole numbers as decimal text, written as bytes: what `String(value)` writes, without making
/// a string.
enum DecimalText {
  /// The number of characters `String(value)` has.
  static func length(_ value: Int) -> Int {
    var length = value < 0 ? 2 : 1
    var rest = value / 10
    while rest != 0 {
      length += 1
      rest /= 10
    }
    return length
  }

  /// Appends `value` as `String(value)` writes it, after as many `padding` bytes as it takes
  /// to fill `width` characters.
  ///
  /// - Complexity: O(width + digits).
  static func append(
    _ value: Int, width: Int = 0, padding: UInt8 = UInt8(ascii: "0"), to output: inout [UInt8]
  ) {
    let characters = length(value)
    for _ in 0..<max(0, width - characters) { output.append(padding) }
    if value < 0 { output.append(UInt8(ascii: "-")) }
    // The digits are written from the last, dividing by the constant 10 (a multiplication).
    output.append(
      contentsOf: repeatElement(UInt8(ascii: "0"), count: characters - (value < 0 ? 1 : 0)))
    // The magnitude as unsigned, so that `Int.min` has one too.
    var rest = value.magnitude
    var position = output.endIndex
    repeat {
      position -= 1
      output[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    } while rest != 0
  }
}
