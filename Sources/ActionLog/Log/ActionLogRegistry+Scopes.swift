import Foundation
import StateStore

extension ActionLogRegistry {
  /// Registers a feature's scope: returns the registry of the feature's state, in which the
  /// feature registers its updaters.
  ///
  /// ```swift
  /// let registry = ActionLogRegistry<AppState>()
  /// ProfileFeature.registerUpdaters(in: registry.scope("profile", state: \.profile))
  /// ```
  ///
  /// An updater dispatched through `app.scope(state: \.profile)` is then written with
  /// `"scope":"profile"` and its own registered name, and replays on the root as the scope
  /// applied it. `name` must be the scope's name (`Store.scopePath`'s last level: by default
  /// the key path's, as here). Asking again for the same name returns the same registry.
  public func scope<Slice: State>(
    _ name: String, state keyPath: any (WritableKeyPath<S, Slice> & Sendable)
  ) -> ActionLogRegistry<Slice> {
    scope(name) { child in
      ScopeCodec<S>(
        child: child, isElement: false,
        wrap: { updater, _ in
          ScopedUpdater<S, Slice>(scope: name, keyPath: keyPath, updater: updater)
        })
    }
  }

  /// Registers a row feature's element scope (`app.scope(state: \.todos, id: …)`): the
  /// element's id is written with the scope, as `todos[3]`.
  public func scope<Element: State & Identifiable>(
    _ name: String, elements keyPath: any (WritableKeyPath<S, TrackedArray<Element>> & Sendable)
  ) -> ActionLogRegistry<Element> where Element.ID: Codable & Sendable {
    scope(name) { child in
      ScopeCodec<S>(
        child: child, isElement: true,
        wrap: { updater, idJSON in
          let id = try JSONDecoder().decode(Element.ID.self, from: Data(idJSON.utf8))
          return ScopedUpdater<S, Element>(
            scope: name, updater: updater, elementID: id, identity: nil, origin: .everything,
            lens: { state, body in
              if let position = state[keyPath: keyPath].index(id: id) {
                state[keyPath: keyPath].modify(at: position, body)
              }
            })
        })
    }
  }

  private func scope<Slice: State>(
    _ name: String,
    make: (ActionLogRegistry<Slice>) -> ScopeCodec<S>
  ) -> ActionLogRegistry<Slice> {
    if let existing = tables.withLock({ $0.scopes[name] })?.child as? ActionLogRegistry<Slice> {
      return existing
    }
    let child = ActionLogRegistry<Slice>()
    let codec = make(child)
    tables.withLock { $0.scopes[name] = codec }
    return child
  }

  /// The registered scope names, sorted.
  ///
  /// - Complexity: O(n log n) in the number of scopes.
  public var scopeNames: [String] {
    tables.withLock { $0.scopes.keys.sorted() }
  }

  /// Finds the codec of the updater inside `scoped`, and the scope path to write.
  func scopedCodec(for scoped: any ScopedUpdaterProtocol) throws(ActionLogError) -> ScopedEntry {
    guard let scope = tables.withLock({ $0.scopes[scoped.scope] }) else {
      throw .unregisteredUpdater(
        type: "\(String(reflecting: type(of: scoped.innermostUpdater))) in unregistered scope "
          + "\"\(scoped.scope)\"")
    }
    var segment = scoped.scope
    if scope.isElement, let id = scoped.elementID {
      segment += "[" + (Self.encodeID(id) ?? "null") + "]"
    }
    var entry = try scope.child.findCodec(for: scoped.wrapped)
    entry.path.insert(segment, at: 0)
    return entry
  }

  /// The updater for `line`'s `type` under the scope path `segments`.
  func decodeScoped(
    _ segments: ArraySlice<ScopeSegment>, type name: String,
    container: KeyedDecodingContainer<LogKey>
  ) throws -> any StateUpdater<S> {
    guard let first = segments.first, let scope = tables.withLock({ $0.scopes[first.name] }),
      scope.isElement == (first.id != nil)
    else {
      throw LineFailure.unknownScope(segments.map(\.text).joined(separator: "/"))
    }
    let inner = try scope.child.decodeErased(segments.dropFirst(), type: name, container)
    do {
      return try scope.wrap(inner, first.id ?? "")
    } catch {
      throw LineFailure.malformed("the id of scope \(first.text) does not decode: \(error)")
    }
  }

  private static func encodeID(_ id: any Hashable & Sendable) -> String? {
    guard let encodable = id as? any Encodable,
      let data = try? JSONEncoder().encode(encodable)
    else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}

/// One scope registered in a registry: the feature's registry and how to wrap its updaters.
struct ScopeCodec<S: State>: Sendable {
  let child: any ScopeRegistry
  let isElement: Bool
  /// Wraps a decoded updater of the feature into one of `S`; the string is an element's id.
  let wrap: @Sendable (_ updater: any Dispatchable, _ idJSON: String) throws -> any StateUpdater<S>

  init<Slice: State>(
    child: ActionLogRegistry<Slice>, isElement: Bool,
    wrap: @escaping @Sendable (any StateUpdater<Slice>, String) throws -> any StateUpdater<S>
  ) {
    self.child = child
    self.isElement = isElement
    self.wrap = { updater, id in
      guard let typed = updater as? any StateUpdater<Slice> else {
        throw LineFailure.malformed("\(type(of: updater)) is not an updater of \(Slice.self)")
      }
      return try wrap(typed, id)
    }
  }
}

/// What a scoped entry is written with.
struct ScopedEntry {
  var path: [String]
  let quotedName: String
  let encode: @Sendable (_ updater: any Dispatchable, _ encoder: JSONEncoder) throws -> Data
  let updater: any Dispatchable
}

/// One level of a `scope` value: `profile`, or `todos[3]` for an element scope.
struct ScopeSegment {
  let text: String
  let name: String
  let id: String?

  init(_ text: Substring) {
    self.text = String(text)
    if let open = text.firstIndex(of: "["), text.hasSuffix("]") {
      name = String(text[..<open])
      id = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
    } else {
      name = String(text)
      id = nil
    }
  }

  /// The levels of a `scope` value; `/` inside an element's id does not split it.
  static func parse(_ text: String) -> [ScopeSegment] {
    var segments: [ScopeSegment] = []
    var start = text.startIndex
    var depth = 0
    var index = text.startIndex
    while index < text.endIndex {
      switch text[index] {
      case "[": depth += 1
      case "]": depth -= 1
      case "/" where depth == 0:
        segments.append(ScopeSegment(text[start..<index]))
        start = text.index(after: index)
      default: break
      }
      index = text.index(after: index)
    }
    segments.append(ScopeSegment(text[start...]))
    return segments
  }
}

/// A registry seen without its state type, for walking scopes.
protocol ScopeRegistry: Sendable {
  func findCodec(for updater: any Dispatchable) throws(ActionLogError) -> ScopedEntry
  func decodeErased(
    _ segments: ArraySlice<ScopeSegment>, type: String, _ container: KeyedDecodingContainer<LogKey>
  ) throws -> any Dispatchable
}

extension ActionLogRegistry: ScopeRegistry {
  func findCodec(for updater: any Dispatchable) throws(ActionLogError) -> ScopedEntry {
    if let scoped = updater as? any ScopedUpdaterProtocol { return try scopedCodec(for: scoped) }
    guard let codec = codec(for: type(of: updater)), updater is any StateUpdater<S> else {
      throw .unregisteredUpdater(type: String(reflecting: type(of: updater)))
    }
    return ScopedEntry(
      path: [], quotedName: codec.quotedName,
      encode: { updater, encoder in
        guard let typed = updater as? any StateUpdater<S> else {
          throw ActionLogError.encodingFailed(
            type: String(reflecting: type(of: updater)), reason: "not an updater of \(S.self)")
        }
        return try codec.encode(typed, encoder)
      },
      updater: updater)
  }

  func decodeErased(
    _ segments: ArraySlice<ScopeSegment>, type name: String,
    _ container: KeyedDecodingContainer<LogKey>
  ) throws -> any Dispatchable {
    if !segments.isEmpty { return try decodeScoped(segments, type: name, container: container) }
    guard let codec = codec(named: name) else { throw LineFailure.unknownType(name) }
    guard container.contains(.payload) else { throw LineFailure.malformed("missing \"payload\"") }
    do {
      return try codec.decode(container)
    } catch {
      throw LineFailure.payload(type: name, error: error)
    }
  }
}
