import Synchronization

extension TrackedArray: RandomAccessCollection {
  /// The position of the first element.
  public var startIndex: Int { _storage.startIndex }

  /// The position one past the last element.
  public var endIndex: Int { _storage.endIndex }

  /// The element at `position`.
  public subscript(position: Int) -> Element { _storage[position] }
}

extension TrackedArray: ExpressibleByArrayLiteral {
  /// Creates an array from a literal; a later element replaces an earlier one with the same id.
  public init(arrayLiteral elements: Element...) {
    self.init(elements)
  }
}

extension TrackedArray: Equatable where Element: Equatable {
  /// Two arrays are equal when they hold equal elements in the same order.
  ///
  /// - Complexity: O(n).
  public static func == (lhs: TrackedArray, rhs: TrackedArray) -> Bool {
    lhs._storage == rhs._storage
  }
}

extension TrackedArray: Hashable where Element: Hashable {
  /// Hashes the elements in order.
  ///
  /// - Complexity: O(n).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(_storage)
  }
}

extension TrackedArray: Encodable where Element: Encodable {
  /// Encodes the elements as a plain array.
  ///
  /// An encoder that keeps the previous encoding (the action log's diff mode) re-encodes only
  /// the elements that changed since, when none was added, removed or moved.
  ///
  /// - Complexity: O(n).
  public func encode(to encoder: any Encoder) throws {
    if let tracking = encoder as? any ChangeTrackingEncoder {
      try tracking.encodeTrackedArray(self)
      return
    }
    var container = encoder.singleValueContainer()
    try container.encode(_storage)
  }
}

extension TrackedArray: Decodable where Element: Decodable {
  /// Decodes a plain array; a later element replaces an earlier one with the same id.
  ///
  /// - Complexity: O(n).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    self.init(try container.decode([Element].self))
  }
}

extension TrackedArray: CustomStringConvertible {
  /// The elements, printed as an array.
  public var description: String { _storage.description }
}
