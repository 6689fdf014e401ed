import StateStore

/// A readable, field-by-field difference between two values of the same type.
///
/// `StateDiff` walks both values with `Mirror`, so it works for any state without conformances:
///
/// ```swift
/// StateDiff.lines(from: old, to: new)
/// // ["todos[3].done: false → true", "title: \"a\" → \"b\"", "todos[5]: added Todo(id: 5, …)"]
/// ```
///
/// - Structs, classes and tuples are compared field by field (`a.b.c`).
/// - Enums report a case change as a whole, and associated values of the same case by field
///   (`phase.loaded.count`).
/// - Arrays (and `TrackedArray`) are compared by index (`todos[3]`), with extra elements
///   reported as `added` or `removed`.
/// - Dictionaries are compared by key (`scores["ann"]`) and sets by element. Both are sorted by
///   the keys' and elements' descriptions, because their iteration order differs between
///   processes and the lines must not.
/// - `Equatable` values that are equal are skipped without being walked.
///
/// ``Options`` caps the depth, the number of lines and the length of each rendered value, so that
/// the diff of two huge states stays readable.
///
/// > Note: The diff lives in `ActionLog`, not in the core: the store never needs it. Its users
/// > are a replay's divergence report (``ReplayDivergence``) and the failure messages of
/// > `StateStoreTesting`, which depends on `ActionLog` for its replay assertions anyway; so one
/// > module on top of the core serves both, and the core stays the store alone.
public enum StateDiff {
  /// Limits that keep the diff of large states readable.
  public struct Options: Sendable, Equatable {
    /// How many levels below the root are walked; deeper differences are reported as a whole.
    public var maximumDepth: Int
    /// How many difference lines are produced before a final "more differences" line.
    public var maximumLines: Int
    /// How many characters a rendered value may take before it is cut with `…`.
    public var maximumValueLength: Int

    /// Creates options; the defaults suit error messages and test failures.
    public init(maximumDepth: Int = 16, maximumLines: Int = 50, maximumValueLength: Int = 120) {
      self.maximumDepth = max(0, maximumDepth)
      self.maximumLines = max(1, maximumLines)
      self.maximumValueLength = max(8, maximumValueLength)
    }
  }

  /// Describes every difference between `old` and `new`, one line per changed field.
  ///
  /// Returns an empty array when the values do not differ. Lines look like
  /// `path: old → new`, `path[i]: added value` or `path: removed value`; the root is `self`.
  ///
  /// - Complexity: O(size of both values) in the worst case; equal `Equatable` parts are
  ///   skipped after an `==` check.
  public static func lines<T>(from old: T, to new: T, options: Options = Options()) -> [String] {
    var walker = DiffWalker(options: options)
    walker.compare(old, new, path: "", depth: 0)
    return walker.finish()
  }

  /// Renders `value` on one line, as the diff shows it, cut at `maximumLength` characters.
  ///
  /// - Complexity: O(maximumLength): rendering stops as soon as the limit is reached.
  public static func render(_ value: Any, maximumLength: Int = 120) -> String {
    var renderer = ValueRenderer(limit: max(8, maximumLength))
    renderer.render(value)
    return renderer.result
  }
}

/// A collection that the diff shows as its elements rather than through its stored properties.
protocol DiffableCollection {
  /// The elements, in order.
  var diffElements: [Any] { get }
}

extension TrackedArray: DiffableCollection {
  var diffElements: [Any] { elements }
}

/// Whether two values are `==`, or `nil` when the type is not `Equatable`.
func diffEquality(_ lhs: Any, _ rhs: Any) -> Bool? {
  guard let equatable = lhs as? any Equatable else { return nil }
  return equatable.isEqual(to: rhs)
}

extension Equatable {
  fileprivate func isEqual(to other: Any) -> Bool {
    guard let other = other as? Self else { return false }
    return self == other
  }
}
