import Foundation

/// An array index as a coding key.
///
/// One integer, so that it fits an existential's inline buffer, and its text is written only
/// when asked for (an error's coding path).
struct IndexKey: CodingKey {
  let index: Int
  var intValue: Int? { index }
  var stringValue: String { String(index) }

  init(_ index: Int) {
    self.index = index
  }

  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.init(intValue) }
}

/// The keyed container of ``TreeValueEncoder``.
struct TreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let context: TreeEncodingContext
  let storage: EncodingSlot.KeyedStorage
  let path: [String]?
  let codingPath: [any CodingKey]

  private func set(_ value: JSONValue, for key: Key) {
    storage.setLeaf(value, for: key.stringValue)
  }

  mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
  mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
  mutating func encode(_ value: Double, forKey key: Key) throws {
    set(try TreeEncodingContext.number(value, at: codingPath + [key]), for: key)
  }
  mutating func encode(_ value: Float, forKey key: Key) throws {
    set(try TreeEncodingContext.number(value, at: codingPath + [key]), for: key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    set(.number(String(value)), for: key)
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    set(.number(String(value)), for: key)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    set(.number(String(value)), for: key)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    set(.number(String(value)), for: key)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    set(.number(String(value)), for: key)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    set(.number(String(value)), for: key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    set(.number(String(value)), for: key)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    set(.number(String(value)), for: key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    set(.number(String(value)), for: key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    set(.number(String(value)), for: key)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try context.encode(
      value, into: storage.slot(for: key.stringValue), path: path.map { $0 + [key.stringValue] },
      codingPath: codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(
      TreeKeyedContainer<NestedKey>(
        context: context,
        storage: storage.slot(for: key.stringValue).keyedStorage(
          context: context, keyType: ObjectIdentifier(NestedKey.self)),
        path: path.map { $0 + [key.stringValue] }, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    TreeUnkeyedContainer(
      context: context, storage: storage.slot(for: key.stringValue).unkeyedStorage(),
      codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    superEncoder(named: "super")
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(named: key.stringValue)
  }

  private func superEncoder(named name: String) -> any Encoder {
    TreeValueEncoder(
      context: context, slot: storage.slot(for: name), path: nil, codingPath: codingPath)
  }
}

/// The unkeyed container of ``TreeValueEncoder``.
struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
  let context: TreeEncodingContext
  let storage: EncodingSlot.UnkeyedStorage
  let codingPath: [any CodingKey]
  var count: Int { storage.slots.count }

  private func nextSlot() -> EncodingSlot {
    let slot = EncodingSlot()
    storage.slots.append(slot)
    return slot
  }

  private func append(_ value: JSONValue) { nextSlot().content = .leaf(value) }

  mutating func encodeNil() throws { append(.null) }
  mutating func encode(_ value: Bool) throws { append(.bool(value)) }
  mutating func encode(_ value: String) throws { append(.string(value)) }
  mutating func encode(_ value: Double) throws {
    append(try TreeEncodingContext.number(value, at: codingPath + [IndexKey(count)]))
  }
  mutating func encode(_ value: Float) throws {
    append(try TreeEncodingContext.number(value, at: codingPath + [IndexKey(count)]))
  }
  mutating func encode(_ value: Int) throws { append(.number(String(value))) }
  mutating func encode(_ value: Int8) throws { append(.number(String(value))) }
  mutating func encode(_ value: Int16) throws { append(.number(String(value))) }
  mutating func encode(_ value: Int32) throws { append(.number(String(value))) }
  mutating func encode(_ value: Int64) throws { append(.number(String(value))) }
  mutating func encode(_ value: UInt) throws { append(.number(String(value))) }
  mutating func encode(_ value: UInt8) throws { append(.number(String(value))) }
  mutating func encode(_ value: UInt16) throws { append(.number(String(value))) }
  mutating func encode(_ value: UInt32) throws { append(.number(String(value))) }
  mutating func encode(_ value: UInt64) throws { append(.number(String(value))) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let key = IndexKey(count)
    try context.encode(value, into: nextSlot(), path: nil, codingPath: codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let key = IndexKey(count)
    return KeyedEncodingContainer(
      TreeKeyedContainer<NestedKey>(
        context: context,
        storage: nextSlot().keyedStorage(
          context: context, keyType: ObjectIdentifier(NestedKey.self)),
        path: nil,
        codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let key = IndexKey(count)
    return TreeUnkeyedContainer(
      context: context, storage: nextSlot().unkeyedStorage(), codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    let key = IndexKey(count)
    return TreeValueEncoder(
      context: context, slot: nextSlot(), path: nil, codingPath: codingPath + [key])
  }
}

/// The single-value container of ``TreeValueEncoder``.
struct TreeSingleValueContainer: SingleValueEncodingContainer {
  let encoder: TreeValueEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  private func set(_ value: JSONValue) { encoder.slot.content = .leaf(value) }

  mutating func encodeNil() throws { set(.null) }
  mutating func encode(_ value: Bool) throws { set(.bool(value)) }
  mutating func encode(_ value: String) throws { set(.string(value)) }
  mutating func encode(_ value: Double) throws {
    set(try TreeEncodingContext.number(value, at: codingPath))
  }
  mutating func encode(_ value: Float) throws {
    set(try TreeEncodingContext.number(value, at: codingPath))
  }
  mutating func encode(_ value: Int) throws { set(.number(String(value))) }
  mutating func encode(_ value: Int8) throws { set(.number(String(value))) }
  mutating func encode(_ value: Int16) throws { set(.number(String(value))) }
  mutating func encode(_ value: Int32) throws { set(.number(String(value))) }
  mutating func encode(_ value: Int64) throws { set(.number(String(value))) }
  mutating func encode(_ value: UInt) throws { set(.number(String(value))) }
  mutating func encode(_ value: UInt8) throws { set(.number(String(value))) }
  mutating func encode(_ value: UInt16) throws { set(.number(String(value))) }
  mutating func encode(_ value: UInt32) throws { set(.number(String(value))) }
  mutating func encode(_ value: UInt64) throws { set(.number(String(value))) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try encoder.context.encode(
      value, into: encoder.slot, path: encoder.path, codingPath: encoder.codingPath)
  }
}
