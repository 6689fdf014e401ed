import Foundation
import StateStore

/// What encoding a state gave: JSON values, except where a `TrackedArray` kept its previous
/// encoding and only some of its elements were encoded anew.
enum EncodedTree {
  /// A value encoded whole.
  case value(JSONValue)
  /// An object some of whose members lie below a patched array, in `JSONEncoder`'s key order.
  case object([(key: String, value: EncodedTree)])
  /// An array as it was before, but for the elements at these positions, in increasing order.
  case patchedArray([(index: Int, value: JSONValue)])
}

/// Encodes a state into a ``JSONValue`` tree, with the values `JSONEncoder` (sorted keys, on
/// Linux) would write, without writing text and parsing it back.
///
/// Given the tree of the previous encoding, it reads each `TrackedArray` on a path of keyed
/// containers from the root through its change journal: when no element was added, removed or
/// moved since the last encoding, only the elements the journal names are encoded again. That
/// makes the diff of an entry cost what it changed, not the state's size, for states whose large
/// collections are tracked arrays.
struct TreeEncoder {
  /// What a tracked array was when the encoding at its path was last taken.
  struct Memo: Equatable {
    var stamp: UInt64
    var layoutStamp: UInt64
    /// The ``Memory/encodings`` count of the encoding that took it.
    var encoding: UInt64
  }

  /// What an encoding leaves for the next one.
  struct Memory {
    /// The stamps of the tracked arrays the last encoding read, by path.
    var memos: [[String]: Memo] = [:]
    /// How many encodings used this memory: a memo taken by the current one means a path
    /// encoded twice (a key set twice), whose second array is encoded whole.
    var encodings: UInt64 = 0
    /// The sorted order of the last keys each key type encoded.
    var keyOrders: [ObjectIdentifier: (keys: [String], order: [Int])] = [:]
  }

  /// Encodes `value`; `previous` is the tree of the last encoding, and `memory` what it left
  /// (updated for the next one).
  ///
  /// - Complexity: O(size of the value outside tracked arrays + elements that changed in
  ///   them); O(size of the value) without `previous`.
  static func encode(
    _ value: some Encodable, previous: JSONValue?, memory: inout Memory
  ) throws -> EncodedTree {
    memory.encodings &+= 1
    let context = TreeEncodingContext(previous: previous, memory: memory)
    // The context's copy alone, so that updating it copies no table.
    memory = Memory()
    let slot = EncodingSlot(containerPath: [])
    try context.encode(value, into: slot)
    // The tree first: building it sorts the keys of the containers not sorted yet, which the
    // memory keeps.
    let tree = slot.tree
    memory = context.memory
    return tree
  }

  /// Encodes `value` whole, as `JSONEncoder` would, into a tree.
  ///
  /// - Complexity: O(size of the value).
  static func encodeWhole(_ value: any Encodable) throws -> JSONValue {
    let context = TreeEncodingContext(previous: nil, memory: TreeEncoder.Memory())
    let slot = EncodingSlot(containerPath: nil)
    try context.encode(value, into: slot)
    return slot.tree.wholeValue
  }
}

extension EncodedTree {
  /// The tree as one value, for a tree holding no patched array.
  var wholeValue: JSONValue {
    switch self {
    case .value(let value): value
    case .object(let members):
      .object(JSONObject(members.map { ($0.key, $0.value.wholeValue) }))
    case .patchedArray: .null
    }
  }
}

/// Where one value goes while it is encoded.
final class EncodingSlot {
  enum Content {
    case empty
    case leaf(JSONValue)
    case keyed(KeyedStorage)
    case unkeyed(UnkeyedStorage)
    case tree(EncodedTree)
  }

  var content = Content.empty

  /// The coding path of the container holding the value, and the value's key in it (`nil` for
  /// the root and a super encoder's value).
  private let containerCodingPath: [any CodingKey]
  private let key: (any CodingKey)?
  /// The keys from the root to the container holding the value (`nil` below an array), and
  /// the value's key in it (`nil` when it adds none).
  private let containerPath: [String]?
  private let name: String?
  /// For an element that its array's slot does not hold (a patched one), that slot: the
  /// container whose coding path is the element's container's, read only when asked for.
  private let array: EncodingSlot?
  /// The paths once built: the value's own members all ask for them.
  private var knownCodingPath: [any CodingKey]?
  private var knownPath: [String]?

  /// A slot for the value at `key` (or `name`, its string) in a container at `containerPath`
  /// and `containerCodingPath`.
  ///
  /// The value's own paths are built only when asked for: most values are leaves, and most
  /// containers' members are, whose paths nobody asks for.
  init(
    containerCodingPath: [any CodingKey] = [], key: (any CodingKey)? = nil,
    containerPath: [String]?, name: String? = nil
  ) {
    self.containerCodingPath = containerCodingPath
    self.key = key
    self.containerPath = containerPath
    self.name = name
    array = nil
  }

  /// A slot for the element at `index` of the array encoded in `array`, which does not hold
  /// it: below an array, at no path of keys.
  init(element index: Int, of array: EncodingSlot) {
    containerCodingPath = []
    key = IndexKey(index)
    containerPath = nil
    name = nil
    self.array = array
  }

  /// The coding keys from the root to the value.
  ///
  /// - Complexity: O(depth) the first time.
  var codingPath: [any CodingKey] {
    if let knownCodingPath { return knownCodingPath }
    guard let key else { return containerCodingPath }
    let path = (array?.codingPath ?? containerCodingPath) + [key]
    knownCodingPath = path
    return path
  }

  /// The keys from the root to the value, `nil` below an array.
  ///
  /// - Complexity: O(depth) the first time.
  var path: [String]? {
    if let knownPath { return knownPath }
    guard let name, let containerPath else { return containerPath }
    let path = containerPath + [name]
    knownPath = path
    return path
  }

  /// The encoded value; a value that encoded nothing is an empty object, as in `JSONEncoder`.
  var tree: EncodedTree {
    switch content {
    case .empty: .value(.object(JSONObject()))
    case .leaf(let value): .value(value)
    case .tree(let tree): tree
    case .unkeyed(let storage): .value(.array(storage.slots.map(\.tree.wholeValue)))
    case .keyed(let storage): storage.tree
    }
  }

  /// The members of a keyed container; a key encoded twice keeps its last value.
  final class KeyedStorage {
    enum Member {
      case leaf(JSONValue)
      case slot(EncodingSlot)

      /// Whether the member's slot holds a tree (a patched array) rather than a value.
      var isTree: Bool {
        guard case .slot(let slot) = self, case .tree = slot.content else { return false }
        return true
      }
    }

    /// The keys and members set so far.
    ///
    /// A value of its own, so that setting a member is one access to the storage's state.
    struct Members {
      /// The keys, in the order they were first set; while ``followsLastKeys``, the keys of
      /// the key type's last container, of which the first `values.count` have been set.
      var keys: [String]
      var values: [Member] = []
      /// Whether the keys set so far are the first of the key type's last keys, in order: then
      /// they are not stored again, and the last sorted order serves (the same buffer compares
      /// equal at once).
      var followsLastKeys: Bool
      /// The position of each key, once there are too many to search.
      private var positions: [String: Int] = [:]

      init(lastKeys: [String]) {
        keys = lastKeys
        followsLastKeys = !lastKeys.isEmpty
        values.reserveCapacity(lastKeys.count)
      }

      private mutating func position(of key: String) -> Int? {
        guard keys.count > 8 else { return keys.firstIndex(of: key) }
        if positions.isEmpty {
          for (position, key) in keys.enumerated() { positions[key] = position }
        }
        return positions[key]
      }

      /// Keeps only the keys that were set: the last keys of the key type stop being followed.
      mutating func stopFollowingLastKeys() {
        guard followsLastKeys else { return }
        followsLastKeys = false
        keys.removeSubrange(values.count...)
      }

      mutating func set(_ member: Member, for key: String) {
        if followsLastKeys {
          if values.count < keys.count, keys[values.count] == key {
            values.append(member)
            return
          }
          stopFollowingLastKeys()
        }
        if let position = position(of: key) {
          values[position] = member
          return
        }
        if !positions.isEmpty { positions[key] = keys.count }
        keys.append(key)
        values.append(member)
      }
    }

    private let context: TreeEncodingContext
    /// The container's key type, whose keys come in the same order each time.
    private let keyType: ObjectIdentifier
    /// The sorted order of the key type's last keys.
    private let lastOrder: [Int]
    private var members: Members

    init(context: TreeEncodingContext, keyType: ObjectIdentifier) {
      self.context = context
      self.keyType = keyType
      let last = context.memory.keyOrders[keyType]
      lastOrder = last?.order ?? []
      members = Members(lastKeys: last?.keys ?? [])
    }

    func setLeaf(_ value: JSONValue, for key: String) {
      members.set(.leaf(value), for: key)
    }

    func setSlot(_ slot: EncodingSlot, for key: String) {
      members.set(.slot(slot), for: key)
    }

    /// The members in JSONEncoder's sorted-key order on Linux: by UTF-8 bytes.
    var tree: EncodedTree {
      // Fewer keys than the key type's last container: only the ones set.
      if members.values.count < members.keys.count { members.stopFollowingLastKeys() }
      let members = self.members
      let keys = members.keys
      let order =
        members.followsLastKeys ? lastOrder : context.sortedOrder(of: keys, for: keyType)
      // Whole values go straight into an object; the first member below a patched array turns
      // the members so far into a tree's. A member that is a patched array itself makes a
      // tree's members from the start.
      var object = JSONObject()
      var trees: [(key: String, value: EncodedTree)]?
      if members.values.contains(where: \.isTree) {
        trees = []
        trees?.reserveCapacity(order.count)
      } else {
        object.reserveCapacity(order.count)
      }
      for position in order {
        let tree: EncodedTree
        switch members.values[position] {
        case .leaf(let value): tree = .value(value)
        case .slot(let slot): tree = slot.tree
        }
        if trees == nil, case .value(let value) = tree {
          object.appendNew(keys[position], value)
          continue
        }
        if trees == nil {
          var converted: [(key: String, value: EncodedTree)] = []
          converted.reserveCapacity(order.count)
          for member in object.members { converted.append((member.key, .value(member.value))) }
          trees = converted
        }
        trees?.append((keys[position], tree))
      }
      return trees.map { .object($0) } ?? .value(.object(object))
    }
  }

  /// The elements of an unkeyed container.
  final class UnkeyedStorage {
    var slots: [EncodingSlot] = []
  }

  func keyedStorage(
    context: TreeEncodingContext, keyType: ObjectIdentifier
  ) -> KeyedStorage {
    if case .keyed(let storage) = content { return storage }
    let storage = KeyedStorage(context: context, keyType: keyType)
    content = .keyed(storage)
    return storage
  }

  func unkeyedStorage() -> UnkeyedStorage {
    if case .unkeyed(let storage) = content { return storage }
    let storage = UnkeyedStorage()
    content = .unkeyed(storage)
    return storage
  }
}

/// What every encoder and container of one encoding shares.
final class TreeEncodingContext {
  let previous: JSONValue?
  var memory: TreeEncoder.Memory

  init(previous: JSONValue?, memory: TreeEncoder.Memory) {
    self.previous = previous
    self.memory = memory
  }

  /// The positions of `keys` in JSONEncoder's sorted-key order on Linux: by UTF-8 bytes.
  ///
  /// A type's keys come in the order of its `encode(to:)`, so the last order found for the key
  /// type serves again when the keys are the same.
  func sortedOrder(of keys: [String], for keyType: ObjectIdentifier) -> [Int] {
    if let known = memory.keyOrders[keyType], known.keys == keys { return known.order }
    var order = Array(keys.indices)
    order.sort { keys[$0].utf8.lexicographicallyPrecedes(keys[$1].utf8) }
    memory.keyOrders[keyType] = (keys, order)
    return order
  }

  /// Encodes `value` into `slot`.
  func encode(_ value: some Encodable, into slot: EncodingSlot) throws {
    // The types JSONEncoder writes its own way rather than through their `encode(to:)`.
    if type(of: value) == Data.self, let data = value as? Data {
      slot.content = .leaf(.string(data.base64EncodedString()))
    } else if type(of: value) == URL.self, let url = value as? URL {
      slot.content = .leaf(.string(url.absoluteString))
    } else if type(of: value) == Decimal.self, let decimal = value as? Decimal {
      slot.content = .leaf(.number(decimal.description))
    } else {
      try value.encode(to: TreeValueEncoder(context: self, slot: slot))
    }
  }

  static func number(
    _ value: some BinaryFloatingPoint & LosslessStringConvertible,
    at path: @autoclosure () -> [any CodingKey]
  )
    throws -> JSONValue
  {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: path(), debugDescription: "Unable to encode \(value) directly in JSON."))
    }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    return .number(text)
  }
}

/// The `Encoder` of one value.
///
/// Two references, so that it fits an existential's inline buffer: passing it to
/// `encode(to:)` allocates nothing.
struct TreeValueEncoder: ChangeTrackingEncoder {
  let context: TreeEncodingContext
  let slot: EncodingSlot
  /// The keys from the root, `nil` below an array.
  var path: [String]? { slot.path }
  var codingPath: [any CodingKey] { slot.codingPath }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(
      TreeKeyedContainer<Key>(
        context: context,
        storage: slot.keyedStorage(context: context, keyType: ObjectIdentifier(Key.self)),
        slot: slot))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    TreeUnkeyedContainer(context: context, storage: slot.unkeyedStorage(), slot: slot)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    TreeSingleValueContainer(encoder: self)
  }

  func encodeTrackedArray<Element: Encodable>(_ array: TrackedArray<Element>) throws {
    if let patched = changedElements(of: array) {
      var elements: [(index: Int, value: JSONValue)] = []
      elements.reserveCapacity(patched.count)
      for index in patched {
        // Its coding path is built from this slot's, and only if asked for.
        let slot = EncodingSlot(element: index, of: slot)
        try context.encode(array[index], into: slot)
        elements.append((index, slot.tree.wholeValue))
      }
      slot.content = .tree(.patchedArray(elements))
    } else {
      let storage = slot.unkeyedStorage()
      // The elements share the array's coding path, built once.
      let codingPath = self.codingPath
      for index in 0..<array.endIndex {
        let slot = EncodingSlot(
          containerCodingPath: codingPath, key: IndexKey(index), containerPath: nil)
        storage.slots.append(slot)
        try context.encode(array[index], into: slot)
      }
    }
  }

  /// The positions of the elements that changed since the last encoding, in increasing order,
  /// or `nil` when the array must be encoded whole: no previous encoding at this path, an array
  /// set at this path before in this encoding, elements added, removed or moved since, a
  /// journal too short, or elements that are references (whose contents can change without the
  /// array noting it).
  ///
  /// Notes the array's stamps at its path for the next encoding: an encoding that fails after
  /// this resets the memory.
  private func changedElements<Element>(of array: TrackedArray<Element>) -> [Int]? {
    guard let path else { return nil }
    // One lookup of the path both reads the last memo and writes this one.
    let memo = context.memory.memos.updateValue(
      TreeEncoder.Memo(
        stamp: array.currentStamp, layoutStamp: array.currentLayoutStamp,
        encoding: context.memory.encodings),
      forKey: path)
    // Patched elements replace those of the previous encoding: not those of an array this
    // encoding set at the same path before.
    guard let memo, memo.encoding != context.memory.encodings, !(Element.self is AnyObject.Type),
      case .array(let previous)? = context.previous?.value(at: path),
      // `endIndex`, not the generic `count`, which asks the runtime for the indices' types.
      previous.count == array.endIndex
    else { return nil }
    return array.changedPositions(since: memo.stamp, layoutStamp: memo.layoutStamp)
  }
}
