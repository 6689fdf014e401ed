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
  /// The slot the container fills.
  let slot: EncodingSlot
  var codingPath: [any CodingKey] { slot.codingPath }

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

  /// A new member slot for `key`.
  private func memberSlot(for key: Key) -> EncodingSlot {
    let name = key.stringValue
    let member = EncodingSlot(
      containerCodingPath: slot.codingPath, key: key, containerPath: slot.path, name: name)
    storage.setSlot(member, for: name)
    return member
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try context.encode(value, into: memberSlot(for: key))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let member = memberSlot(for: key)
    return KeyedEncodingContainer(
      TreeKeyedContainer<NestedKey>(
        context: context,
        storage: member.keyedStorage(context: context, keyType: ObjectIdentifier(NestedKey.self)),
        slot: member))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let member = memberSlot(for: key)
    return TreeUnkeyedContainer(context: context, storage: member.unkeyedStorage(), slot: member)
  }

  mutating func superEncoder() -> any Encoder {
    superEncoder(named: "super")
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(named: key.stringValue)
  }

  private func superEncoder(named name: String) -> any Encoder {
    // At the container's coding path, as before, and at no path of keys.
    let member = EncodingSlot(containerCodingPath: slot.codingPath, containerPath: nil)
    storage.setSlot(member, for: name)
    return TreeValueEncoder(context: context, slot: member)
  }
}

/// The unkeyed container of ``TreeValueEncoder``.
struct TreeUnkeyedContainer: UnkeyedEncodingContainer {
  let context: TreeEncodingContext
  let storage: EncodingSlot.UnkeyedStorage
  /// The slot the container fills.
  let slot: EncodingSlot
  var codingPath: [any CodingKey] { slot.codingPath }
  var count: Int { storage.slots.count }

  private func nextSlot() -> EncodingSlot {
    let element = EncodingSlot(
      containerCodingPath: slot.codingPath, key: IndexKey(count), containerPath: nil)
    storage.slots.append(element)
    return element
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
    try context.encode(value, into: nextSlot())
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let element = nextSlot()
    return KeyedEncodingContainer(
      TreeKeyedContainer<NestedKey>(
        context: context,
        storage: element.keyedStorage(context: context, keyType: ObjectIdentifier(NestedKey.self)),
        slot: element))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let element = nextSlot()
    return TreeUnkeyedContainer(context: context, storage: element.unkeyedStorage(), slot: element)
  }

  mutating func superEncoder() -> any Encoder {
    TreeValueEncoder(context: context, slot: nextSlot())
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
    try encoder.context.encode(value, into: encoder.slot)
  }
}
