import TerminalKit

/// The columns of the timeline for the entries on screen: `seq`, time, scope, type, cause,
/// as many as the width allows, each as wide as its widest value on screen needs.
struct TimelineColumns {
  private var sequenceWidth: Int
  private var scopeWidth = 0
  private var typeWidth: Int
  private var causeWidth = 0
  private var showsTime: Bool

  /// Fits the columns for `entries` into `width` columns, less the two of the markers.
  init(_ entries: [InspectedEntry], width: Int) {
    let room = max(width - 2, 0)
    sequenceWidth = max(entries.map { String($0.sequence).count }.max() ?? 1, 3)
    // What the columns after `seq` share, less the two spaces before the type.
    var left = room - sequenceWidth - 2
    showsTime = left >= 50
    if showsTime { left -= Self.timeWidth + 2 }
    let widest = { (values: [String]) in values.map(\.displayWidth).max() ?? 0 }
    let scopes = widest(entries.map { TextOutput.safe($0.scope) })
    if scopes > 0, left >= 30 {
      scopeWidth = min(max(scopes, 5), 16)
      left -= scopeWidth + 2
    }
    let types = widest(entries.map(Self.type))
    let causes = widest(entries.map { $0.cause.map(TextOutput.safe) ?? "-" })
    // The type first; the cause gets what is left, if that is worth showing.
    typeWidth = max(min(max(types, 4), left - 2 - min(causes, 12)), min(left, 6), 0)
    if left - typeWidth - 2 >= 5 {
      causeWidth = left - typeWidth - 2
    } else {
      typeWidth = max(left, 0)
    }
  }

  private static let timeWidth = 12

  private static func type(_ entry: InspectedEntry) -> String {
    TextOutput.safe(entry.type) + (entry.unrecordedReason == nil ? "" : " (unrecorded)")
  }

  /// The column names, over the markers too.
  var header: String {
    var line = "  " + pad("seq", sequenceWidth, right: true)
    if showsTime { line += "  " + pad("time (UTC)", Self.timeWidth) }
    if scopeWidth > 0 { line += "  " + pad("scope", scopeWidth) }
    line += "  " + pad("type", typeWidth)
    if causeWidth > 0 { line += "  " + "cause" }
    return line
  }

  /// An entry's line, after the markers.
  func line(_ entry: InspectedEntry) -> String {
    var line = pad(String(entry.sequence), sequenceWidth, right: true)
    if showsTime { line += "  " + pad(entry.time.map(TimeText.clock) ?? "-", Self.timeWidth) }
    if scopeWidth > 0 {
      line += "  " + pad(entry.scope.isEmpty ? "-" : TextOutput.safe(entry.scope), scopeWidth)
    }
    line += "  " + pad(Self.type(entry), typeWidth)
    if causeWidth > 0 {
      line += "  " + pad(entry.cause.map(TextOutput.safe) ?? "-", causeWidth)
    }
    return line
  }

  /// `text` cut or padded to `width` columns.
  private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    guard right else { return text.fitted(toWidth: width) }
    let missing = width - text.displayWidth
    return missing > 0 ? String(repeating: " ", count: missing) + text : text.fitted(toWidth: width)
  }

}
