/// The entries the timeline shows, as indices among the log's entries, in increasing order:
/// every entry read so far, or the ones a filter keeps.
///
/// Without a filter nothing is kept per entry, only their number, so reading a log of a
/// million entries adds no memory and no work per entry to the timeline (I3 in
/// `store-bench`); with one, the indices it keeps. An entry is found among them by bisection.
package struct TimelineEntries: RandomAccessCollection, Equatable, Sendable {
  private enum Storage: Equatable, Sendable {
    /// The entries `0..<count`.
    case all(count: Int)
    /// These entries, in increasing order.
    case matching([Int])
  }

  private var storage: Storage

  /// Every entry up to `count`, excluded.
  package init(allUpTo count: Int = 0) {
    storage = .all(count: Swift.max(0, count))
  }

  /// The entries `matching`, which must be in increasing order.
  package init(matching entries: [Int]) {
    storage = .matching(entries)
  }

  /// The first position: 0.
  package var startIndex: Int { 0 }

  /// The position after the last entry: their number.
  package var endIndex: Int {
    switch storage {
    case .all(let count): count
    case .matching(let entries): entries.count
    }
  }

  /// The entry at `position`, which must be less than ``endIndex``.
  package subscript(position: Int) -> Int {
    switch storage {
    case .all(let count):
      // Collection's contract, as `entries[position]` below traps the same way: positions come
      // only from this package's code (the viewport, within `startIndex..<endIndex`), never
      // from a log's bytes or a key, so no input can reach it out of range.
      precondition(position >= 0 && position < count, "a position past the timeline's entries")
      return position
    case .matching(let entries): return entries[position]
    }
  }

  /// Adds the entries `added`, which all come after the ones held.
  ///
  /// - Complexity: O(1) when every entry is held; O(`added.count`) otherwise.
  package mutating func append(contentsOf added: Range<Int>) {
    switch storage {
    case .all(let count) where count == added.lowerBound || added.isEmpty:
      storage = .all(count: Swift.max(count, added.upperBound))
    case .all(let count):
      storage = .matching(Array(0..<count) + added)
    case .matching(var entries):
      storage = .matching([])
      entries.append(contentsOf: added)
      storage = .matching(entries)
    }
  }

  /// Adds `entry`, which comes after the ones held.
  ///
  /// - Complexity: O(1) amortised, O(n) the first time a timeline of every entry leaves one out.
  package mutating func append(_ entry: Int) {
    append(contentsOf: entry..<(entry + 1))
  }

  /// Keeps only the entries before `count`.
  ///
  /// - Complexity: O(log n).
  package mutating func removeEntries(from count: Int) {
    switch storage {
    case .all(let held): storage = .all(count: Swift.max(0, Swift.min(held, count)))
    case .matching(var entries):
      storage = .matching([])
      entries.removeSubrange(entries.partitioningIndex { $0 >= count }...)
      storage = .matching(entries)
    }
  }

  /// The position of the first entry at or after `entry`; ``endIndex`` when there is none.
  ///
  /// - Complexity: O(log n).
  package func position(ofFirstFrom entry: Int) -> Int {
    switch storage {
    case .all(let count): Swift.min(Swift.max(entry, 0), count)
    case .matching(let entries): entries.partitioningIndex { $0 >= entry }
    }
  }

  /// The position of `entry`, found by bisection: what `firstIndex(of:)` answers, in O(log n)
  /// (the viewport's `find`).
  ///
  /// - Complexity: O(log n).
  package func position(of entry: Int) -> Int? {
    let position = position(ofFirstFrom: entry)
    return position < endIndex && self[position] == entry ? position : nil
  }
}
