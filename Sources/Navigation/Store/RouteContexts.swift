import Foundation

/// A state that also holds the context of each element of the route, so that a recorded log
/// restores them and `Navigate` rebuilds the same screens after a replay.
///
/// ```swift
/// struct AppState: RouteContextHoldingState {
///   var route: Route = ["list"]
///   var routeContexts = RouteContexts()
/// }
///
/// // after replaying a log:
/// try await store.dispatch(Navigate(restoring: store.state, contextTypes: [Int.self]))
/// ```
///
/// Each context must be `Codable`: one that cannot be encoded is reported, naming the element
/// and the type, to `Store.onUnhandledError` when the route changes (at record time), and its
/// entry stays empty.
public protocol RouteContextHoldingState: RouteHoldingState {
  /// The encoded context of each element of ``RouteHoldingState/route``, in the same order.
  var routeContexts: RouteContexts { get set }
}

/// The contexts of the route's elements, encoded as JSON beside `Route`, which stays
/// `[RouteElementIdentifier]`.
///
/// The navigator writes it and ``decoded(along:as:)`` reads it back; its encoded form (each
/// context's type name and JSON) is recorded in logs, and is not for the app to read or write.
public struct RouteContexts: Codable, Hashable, Sendable {
  /// One element's context: its type's name and its JSON.
  struct Entry: Codable, Hashable, Sendable {
    /// The context's type, as `String(reflecting:)` names it.
    let type: String
    /// The context, encoded as JSON.
    let json: String
  }

  /// One entry per element of the route; `nil` for an element shown without a context.
  var entries: [Entry?]

  /// No contexts: the value a state starts with.
  public init() {
    self.init(entries: [])
  }

  /// The contexts `entries` hold.
  init(entries: [Entry?]) {
    self.entries = entries
  }

  /// Encodes `contexts`, one per element of `route`.
  ///
  /// - Throws: ``RouteContextEncodingError`` naming the first context that is not `Encodable`
  ///   or fails to encode.
  /// - Complexity: O(total size of the contexts).
  package static func encoding(_ contexts: [(any Sendable)?], along route: Route) throws
    -> RouteContexts
  {
    var entries: [Entry?] = []
    for (index, context) in contexts.enumerated() {
      guard let context else {
        entries.append(nil)
        continue
      }
      let typeName = String(reflecting: type(of: context))
      let identifier = route.indices.contains(index) ? route[index] : "?"
      guard let encodable = context as? any Encodable else {
        throw RouteContextEncodingError(
          identifier: identifier, position: index, type: typeName, reason: "it is not Encodable")
      }
      do {
        let data = try JSONEncoder().encode(encodable)
        entries.append(Entry(type: typeName, json: String(decoding: data, as: UTF8.self)))
      } catch {
        throw RouteContextEncodingError(
          identifier: identifier, position: index, type: typeName, reason: "\(error)")
      }
    }
    return RouteContexts(entries: entries)
  }

  /// Decodes each entry whose type is among `types`, keyed by the identifier of its element in
  /// `route`: the `contexts` a `Navigate` to `route` needs.
  ///
  /// - Throws: ``RouteContextDecodingError`` when an entry's type is not among `types`, or its
  ///   JSON does not decode.
  /// - Complexity: O(total size of the contexts × `types.count`).
  public func decoded(along route: Route, as types: [any (Decodable & Sendable).Type]) throws
    -> [RouteElementIdentifier: any Sendable]
  {
    var contexts: [RouteElementIdentifier: any Sendable] = [:]
    for (index, entry) in entries.enumerated() {
      guard let entry, route.indices.contains(index) else { continue }
      guard let type = types.first(where: { String(reflecting: $0) == entry.type }) else {
        throw RouteContextDecodingError(
          identifier: route[index], type: entry.type, reason: "the type is not among those given")
      }
      do {
        contexts[route[index]] = try decode(type, from: Data(entry.json.utf8))
      } catch {
        throw RouteContextDecodingError(
          identifier: route[index], type: entry.type, reason: "\(error)")
      }
    }
    return contexts
  }

  private func decode<T: Decodable & Sendable>(_ type: T.Type, from data: Data) throws
    -> any Sendable
  {
    try JSONDecoder().decode(type, from: data)
  }
}

/// A route element's context could not be encoded into the state when the route changed.
public struct RouteContextEncodingError: Error, Hashable, CustomStringConvertible {
  /// The element whose context failed.
  public let identifier: RouteElementIdentifier
  /// Its index in the route.
  public let position: Int
  /// The context's type.
  public let type: String
  /// Why it failed.
  public let reason: String

  /// Names the element, its position, the type and the reason.
  public var description: String {
    "the context of \"\(identifier)\" (route position \(position)), a \(type), cannot be "
      + "recorded: \(reason); make it Codable"
  }
}

/// A recorded context could not be decoded to rebuild its screen.
public struct RouteContextDecodingError: Error, Hashable, CustomStringConvertible {
  /// The element whose context failed.
  public let identifier: RouteElementIdentifier
  /// The recorded type.
  public let type: String
  /// Why it failed.
  public let reason: String

  /// Names the element, the type and the reason.
  public var description: String {
    "the recorded context of \"\(identifier)\", a \(type), cannot be decoded: \(reason)"
  }
}

extension Navigate {
  /// Creates a request to go back to the route recorded in `state`, with the contexts recorded
  /// beside it: what rebuilds the screens after a replay.
  ///
  /// - Parameters:
  ///   - state: A state holding a recorded route and its contexts, such as a replayed one.
  ///   - contextTypes: Every type of context the recorded route may hold.
  /// - Throws: ``RouteContextDecodingError`` when a recorded context cannot be decoded.
  public init(
    restoring state: some RouteContextHoldingState,
    contextTypes: [any (Decodable & Sendable).Type]
  ) throws {
    self.init(
      to: state.route,
      contexts: try state.routeContexts.decoded(along: state.route, as: contextTypes))
  }
}
