/// How much a todo matters: `high`, `medium` or `low`; a todo without one has `nil`.
enum Priority: String, Codable, Hashable, Sendable, CaseIterable, Comparable {
  case high, medium, low

  /// The order `--sort priority` lists them in: high first.
  var rank: Int {
    switch self {
    case .high: 0
    case .medium: 1
    case .low: 2
    }
  }

  static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
}
