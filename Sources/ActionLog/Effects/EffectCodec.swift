import Foundation
import StateStore

/// How one registered side effect type is named, encoded and decoded.
struct EffectCodec: Sendable {
  let name: String
  let typeID: ObjectIdentifier
  let encode: @Sendable (_ effect: any Dispatchable, _ encoder: JSONEncoder) throws -> Data?
  let decode: @Sendable (_ json: Data) throws -> any ExecutableDispatchable

  init<E: ExecutableDispatchable & Codable>(_ type: E.Type, name: String) {
    self.name = name
    self.typeID = ObjectIdentifier(type)
    self.encode = { effect, encoder in
      guard let typed = effect as? E else { return nil }
      return try encoder.encode(typed)
    }
    self.decode = { json in try JSONDecoder().decode(E.self, from: json) }
  }
}
