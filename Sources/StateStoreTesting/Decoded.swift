import Foundation

/// Decodes a value from JSON text: how a test written by `ShrunkSession.testSource(_:)`
/// states a value that has no Swift literal, such as an updater or a whole element.
///
/// ```swift
/// try await store.send(decoded(AddTodo.self, json: #"{"id":3,"title":"milk"}"#)) {
///   $0.todos[id: 3]?.done = try decoded(json: "true")
/// }
/// ```
///
/// - Parameters:
///   - type: The type to decode; inferred from the context when left out.
///   - json: The value's JSON text, as the type's `Codable` conformance writes it.
/// - Throws: The `DecodingError` of a text that is not a `T`.
/// - Complexity: O(length of the text).
public func decoded<T: Decodable>(_ type: T.Type = T.self, json: String) throws -> T {
  try JSONDecoder().decode(T.self, from: Data(json.utf8))
}
