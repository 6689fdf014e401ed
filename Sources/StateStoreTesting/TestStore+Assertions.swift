import ActionLog
import StateStore
import Testing

extension TestStore {
  /// Checks the change from `before` to `after` against `expected`, recording a readable diff.
  func assertChange(
    _ label: String, from before: S, to after: S,
    expected updateStateToExpectedResult: ((inout S) throws -> Void)?, at location: SourceLocation
  ) {
    var expected: S
    switch (exhaustivity, updateStateToExpectedResult) {
    case (.on, nil):
      expected = before
    case (.off, nil):
      return
    case (.on, let update?):
      expected = before
      do { try update(&expected) } catch {
        Issue.record("The expectation of \(label) threw: \(error)", sourceLocation: location)
        return
      }
    case (.off, let update?):
      expected = after
      do { try update(&expected) } catch {
        Issue.record("The expectation of \(label) threw: \(error)", sourceLocation: location)
        return
      }
    }
    let differences = Self.differences(expected: expected, actual: after)
    guard !differences.isEmpty else { return }
    let headline =
      updateStateToExpectedResult == nil
      ? "\(label) changed the state, but no change was expected (expected → actual):"
      : "The state after \(label) differs from the expected state (expected → actual):"
    Issue.record(
      Comment(rawValue: ([headline] + differences.map { "  " + $0 }).joined(separator: "\n")),
      sourceLocation: location)
  }

  /// The field-by-field differences between `expected` and `actual`; empty when they match.
  static func differences(expected: S, actual: S) -> [String] {
    if let equatable = expected as? any Equatable, isEqual(equatable, actual) {
      return []
    }
    let lines = StateDiff.lines(from: expected, to: actual)
    if lines.isEmpty, expected is any Equatable {
      return ["the states are not equal (==), but no field shows a difference"]
    }
    return lines
  }

  private static func isEqual<T: Equatable>(_ lhs: T, _ rhs: Any) -> Bool {
    guard let rhs = rhs as? T else { return false }
    return lhs == rhs
  }
}
